package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Invariant 10: for any byte range, L2 writes complete in store order; and a load issues no read while a write over its
 * bytes is pending (invariant 12's guard, docs/design/STORAGE-CORE.md 5.2). Batches are numbered in the order stores
 * created them; when a batch finishes, no earlier batch overlapping it may still be unfinished. And the bounds of a
 * grouped write batch (docs/design/STORAGE-CORE.md 4.3): it holds at least one entry, is 4096-aligned, and is at most
 * {@code max(its largest span, groupedWriteBatchBytes)} long (the largest entry its store inserted stands for its
 * largest span). Skips: that a batch holds only file-contiguous entries in span order, which the core asserts on every
 * append (a violation crashes the run as a bug). The map of stores is used for point look-ups only.
 */
public final class WriteOrderChecker implements Checker {
    private record Batch(long id, long fileOffset, long lengthBytes) {}

    private final TreeMap<Long, List<Batch>> unfinished = new TreeMap<>();
    private final LongTally largestEntry = new LongTally();
    private long maxLength;
    /** Loads requested and not yet ended (their slice reservations are reads issued). */
    private final Set<Long> liveLoads = new HashSet<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.EntryInserted e -> {
                if (!e.headroom()) {
                    largestEntry.merge(e.opId(), e.lengthBytes(), Math::max);
                }
            }
            case CoreEvent.StoreCompleted e -> largestEntry.remove(e.storeId(), 0L);
            case CoreEvent.BatchSealed e -> {
                bounded(ctx, e);
                unfinished.computeIfAbsent(e.fileOffset(), k -> new ArrayList<>())
                    .add(new Batch(e.batchId(), e.fileOffset(), e.lengthBytes()));
                maxLength = Math.max(maxLength, e.lengthBytes());
            }
            case CoreEvent.WriteFinished e -> finished(ctx, e);
            case CoreEvent.LoadRequested e -> liveLoads.add(e.loadId());
            case CoreEvent.LoadCompleted e -> liveLoads.remove(e.loadId());
            case CoreEvent.LoadFailed e -> liveLoads.remove(e.loadId());
            case CoreEvent.SliceReserved e -> {
                if (!unfinished.isEmpty() && liveLoads.contains(e.opId())) {
                    readUnderWrite(ctx, e);
                }
            }
            default -> {
                // not a write
            }
        }
    }

    private void bounded(final CheckContext ctx, final CoreEvent.BatchSealed e) {
        if (!(e.entries() >= 1 && e.lengthBytes() > 0 && e.lengthBytes() % SpecModel.ALIGN == 0
            && e.fileOffset() % SpecModel.ALIGN == 0)) {
            ctx.fail(Invariant.WRITE_ORDER, "write batch " + e.batchId() + " of " + e.entries() + " entries is ["
                + e.fileOffset() + ", +" + e.lengthBytes() + "): empty or not 4096-aligned");
        }
        final long largest = largestEntry.get(e.storeId(), 0L);
        final long bound = SpecModel.writeBatchBoundBytes(ctx.config(), largest);
        if (!(e.lengthBytes() <= bound)) {
            ctx.fail(Invariant.WRITE_ORDER, "write batch " + e.batchId() + " of store " + e.storeId() + " holds "
                + e.lengthBytes() + " B, above max(largest span " + largest + ", groupedWriteBatchBytes "
                + ctx.config().groupedWriteBatchBytes() + ")");
        }
    }

    /**
     * Invariant 12's guard (docs/design/STORAGE-CORE.md 5.2): a load never reads L2 under a pending write to the same
     * bytes; on a device that completes out of order such a read returns the bytes before the write. A load issues a
     * read (reserves its slice) only once the writes over it that were pending have finished; its I/O queue may still
     * hand the read to the device after a later store sealed a write over the same bytes (a store into a committed
     * allocation carries the bytes committed, and a ring slot is reused only once the load's lease is revoked and the
     * load failed, so its bytes are discarded), which this does not judge.
     */
    private void readUnderWrite(final CheckContext ctx, final CoreEvent.SliceReserved e) {
        final long from = e.fileOffset();
        final long to = from + e.lengthBytes();
        for (final List<Batch> at : unfinished.subMap(Math.max(0, from - maxLength), true, to, false).values()) {
            for (final Batch b : at) {
                if (b.fileOffset < to && from < b.fileOffset + b.lengthBytes) {
                    ctx.fail(Invariant.LOAD_BYTES, "load " + e.opId() + " issued a read of [" + from + ", " + to
                        + ") while write batch " + b.id + " over those bytes was pending");
                }
            }
        }
    }

    private void finished(final CheckContext ctx, final CoreEvent.WriteFinished e) {
        final long from = e.fileOffset();
        final long to = from + e.lengthBytes();
        Batch self = null;
        for (final Map.Entry<Long, List<Batch>> at : unfinished.subMap(Math.max(0, from - maxLength), true, to, false)
            .entrySet()) {
            for (final Batch b : at.getValue()) {
                if (b.id == e.batchId()) {
                    self = b;
                } else if (b.id < e.batchId() && b.fileOffset < to && from < b.fileOffset + b.lengthBytes) {
                    ctx.fail(Invariant.WRITE_ORDER, "write batch " + e.batchId() + " [" + from + ", " + to
                        + ") finished before earlier overlapping batch " + b.id);
                }
            }
        }
        if (!(self != null)) {
            ctx.fail(Invariant.WRITE_ORDER, "write batch " + e.batchId() + " finished, never sealed");
        }
        final List<Batch> list = unfinished.get(self.fileOffset);
        list.remove(self);
        if (list.isEmpty()) {
            unfinished.remove(self.fileOffset);
        }
    }

    @Override
    public void atEnd(final CheckContext ctx) {
        if (!(unfinished.isEmpty())) {
            ctx.fail(Invariant.WRITE_ORDER, unfinished.size() + " write batches never finished");
        }
    }
}
