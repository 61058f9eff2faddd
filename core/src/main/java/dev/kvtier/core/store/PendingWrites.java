package dev.kvtier.core.store;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The write batches not yet finished (open, sealed, or at the device), indexed by file start so overlap queries do
 * not scan every batch. Batches may overlap each other (overwrites); their order of creation is store order.
 */
final class PendingWrites {
    private final TreeMap<Long, List<WriteBatch>> byStart = new TreeMap<>();
    private long maxLengthBytes;
    private int count;

    void add(final WriteBatch batch) {
        assert batch.state() == WriteBatch.State.OPEN : "batch " + batch.id + " added while " + batch.state();
        assert batch.lengthBytes() == 0 : "batch " + batch.id + " added with " + batch.lengthBytes() + " B";
        byStart.computeIfAbsent(batch.fileStart, k -> new ArrayList<>()).add(batch);
        count++;
    }

    /** Called when an open batch grows, so queries keep finding it. */
    void grew(final WriteBatch batch) {
        maxLengthBytes = Math.max(maxLengthBytes, batch.lengthBytes());
    }

    void remove(final WriteBatch batch) {
        final List<WriteBatch> list = byStart.get(batch.fileStart);
        if (list == null || !list.remove(batch)) {
            throw new IllegalStateException("batch " + batch.id + " is not pending");
        }
        if (list.isEmpty()) {
            byStart.remove(batch.fileStart);
        }
        count--;
        assert count >= 0 : "pending count below zero";
    }

    /**
     * Pending batches overlapping {@code [from, to)}, oldest first, excluding {@code except} (may be null). Walks the
     * starts from the lowest that can reach {@code from} with {@code ceilingKey}/{@code higherKey} (no range view, no
     * iterator, no exported entry, one boxed bound); the usual answer, none, is the empty list without an
     * {@code ArrayList}.
     */
    List<WriteBatch> overlapping(final long from, final long to, final WriteBatch except) {
        final long lowest = Math.max(0, from - maxLengthBytes);
        if (lowest > to) {
            throw new IllegalArgumentException("fromKey > toKey: " + lowest + " > " + to); // as subMap said
        }
        List<WriteBatch> out = null;
        // By key: ceilingEntry and higherEntry would each export a new immutable entry.
        for (Long start = byStart.ceilingKey(lowest); start != null && start < to; start = byStart.higherKey(start)) {
            final List<WriteBatch> atStart = byStart.get(start);
            for (int i = 0; i < atStart.size(); i++) {
                final WriteBatch b = atStart.get(i);
                if (b != except && b.overlaps(from, to)) {
                    if (out == null) {
                        out = new ArrayList<>();
                    }
                    out.add(b);
                }
            }
        }
        if (out == null) {
            return List.of();
        }
        if (out.size() > 1) {
            out.sort((a, b) -> Long.compare(a.id, b.id));
        }
        return out;
    }

    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Every pending batch, oldest first (for checkers and state dumps). */
    List<WriteBatch> all() {
        final List<WriteBatch> out = new ArrayList<>();
        for (final List<WriteBatch> l : byStart.values()) {
            out.addAll(l);
        }
        out.sort((a, b) -> Long.compare(a.id, b.id));
        return out;
    }
}
