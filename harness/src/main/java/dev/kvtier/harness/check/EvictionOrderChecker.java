package dev.kvtier.harness.check;

import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.util.LongSortedMap;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;

/**
 * Invariants 4 and 5, against a reference model of the replacement policy built from events: every entry gets a
 * sequence on insert and on hit; a grouped store or load opens a group epoch (StoreReceived, LoadRequested) and each
 * hit moves its entry to a fresh epoch outside its group. A victim eviction (RESERVE or TRIM) must take the model's
 * first entry: headroom before normal (4), then the policy's order within the class (5). Overlap drops are not
 * victim choices and are only applied to the model. The maps keyed by op id are used for point look-ups only.
 */
public final class EvictionOrderChecker implements Checker {
    private static final class Shadow {
        final long fileOffset;
        final boolean headroom;
        long sequence;
        long epoch;
        int prefixIndex;

        Shadow(final long fileOffset, final boolean headroom) {
            this.fileOffset = fileOffset;
            this.headroom = headroom;
        }
    }

    private final LongSortedMap<Shadow> byOffset = new LongSortedMap<>();
    private final ShadowClass headroom;
    private final ShadowClass normal;
    private final Map<Long, Long> storeEpochs = new HashMap<>();
    private final Map<Long, Long> loadEpochs = new HashMap<>();
    private long sequence;
    private long epoch;

    public EvictionOrderChecker(final ReplacementKind kind) {
        // Written out rather than chained Comparator.comparing... calls, whose key extractors the JIT cannot inline
        // once several such comparators are in use (as in LruPolicy).
        final Comparator<Shadow> order = kind == ReplacementKind.LRU ? (a, b) -> Long.compare(a.sequence, b.sequence)
            : (a, b) -> {
                final int byEpoch = Long.compare(a.epoch, b.epoch);
                if (byEpoch != 0) {
                    return byEpoch;
                }
                final int bySuffix = Integer.compare(-a.prefixIndex, -b.prefixIndex);
                return bySuffix != 0 ? bySuffix : Long.compare(a.sequence, b.sequence);
            };
        this.headroom = new ShadowClass(kind == ReplacementKind.LRU, order);
        this.normal = new ShadowClass(kind == ReplacementKind.LRU, order);
    }

    /**
     * One class of shadows in the policy's order, the next victim first: under LRU the order is the sequence alone
     * (unique, growing with every insert and hit), so the class is a map keyed by it (an insert or a hit appends, a
     * victim leaves from the front); under the other order, a tree under the comparator.
     */
    private static final class ShadowClass {
        private final LongSortedMap<Shadow> bySequence;
        private final TreeSet<Shadow> ordered;

        ShadowClass(final boolean lru, final Comparator<Shadow> order) {
            this.bySequence = lru ? new LongSortedMap<>() : null;
            this.ordered = lru ? null : new TreeSet<>(order);
        }

        void add(final Shadow s) {
            if (bySequence != null) {
                bySequence.put(s.sequence, s);
            } else {
                ordered.add(s);
            }
        }

        void remove(final Shadow s) {
            if (bySequence != null) {
                bySequence.remove(s.sequence);
            } else {
                ordered.remove(s);
            }
        }

        boolean isEmpty() {
            return bySequence != null ? bySequence.isEmpty() : ordered.isEmpty();
        }

        /** The next victim (the class must not be empty). */
        Shadow first() {
            final Shadow first = bySequence != null ? bySequence.firstValue() : ordered.first();
            if (first == null) {
                throw new NoSuchElementException("no shadow in the class");
            }
            return first;
        }
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.StoreReceived e -> storeEpochs.put(e.storeId(), ++epoch);
            case CoreEvent.StoreCompleted e -> storeEpochs.remove(e.storeId());
            case CoreEvent.LoadRequested e -> loadEpochs.put(e.loadId(), ++epoch);
            case CoreEvent.LoadCompleted e -> loadEpochs.remove(e.loadId());
            case CoreEvent.LoadFailed e -> loadEpochs.remove(e.loadId());
            case CoreEvent.EntryInserted e -> insert(ctx, e);
            case CoreEvent.LoadHit e -> hit(ctx, e);
            case CoreEvent.EntryEvicted e -> evicted(ctx, e);
            default -> {
                // no effect on the replacement order
            }
        }
    }

    private void insert(final CheckContext ctx, final CoreEvent.EntryInserted e) {
        final Long group = (e.headroom() ? loadEpochs : storeEpochs).get(e.opId());
        if (!(group != null)) {
            ctx.fail(Invariant.VICTIM_ORDER, "entry inserted by unknown op " + e.opId());
        }
        final Shadow s = new Shadow(e.fileOffset(), e.headroom());
        s.sequence = ++sequence;
        s.epoch = group;
        s.prefixIndex = e.prefixIndex();
        byOffset.put(s.fileOffset, s);
        classOf(s).add(s);
    }

    private void hit(final CheckContext ctx, final CoreEvent.LoadHit e) {
        final Shadow s = byOffset.floorValue(e.fileOffset());
        if (!(s != null)) {
            ctx.fail(Invariant.VICTIM_ORDER, "hit at " + e.fileOffset() + " on no entry");
        }
        classOf(s).remove(s);
        s.sequence = ++sequence;
        s.epoch = ++epoch;
        s.prefixIndex = 0;
        classOf(s).add(s);
    }

    private void evicted(final CheckContext ctx, final CoreEvent.EntryEvicted e) {
        final Shadow s = byOffset.get(e.fileOffset());
        if (!(s != null)) {
            ctx.fail(Invariant.VICTIM_ORDER, "evicted entry at " + e.fileOffset() + " is not resident");
        }
        if (e.reason() != L1EvictReason.OVERLAP) {
            if (!s.headroom && !headroom.isEmpty()) {
                ctx.fail(Invariant.HEADROOM_FIRST, "normal entry at " + e.fileOffset() + " evicted ("
                    + e.reason() + ") while headroom entry at " + headroom.first().fileOffset + " is resident");
            }
            final Shadow expected = s.headroom ? headroom.first() : normal.first();
            if (!(expected == s)) {
                ctx.fail(Invariant.VICTIM_ORDER, "evicted entry at " + e.fileOffset() + " (" + e.reason()
                    + ") but the policy's victim is the entry at " + expected.fileOffset);
            }
        }
        classOf(s).remove(s);
        byOffset.remove(s.fileOffset);
    }

    private ShadowClass classOf(final Shadow s) {
        return s.headroom ? headroom : normal;
    }
}
