package dev.kvtier.core.l1;

import java.util.function.Supplier;

/**
 * A replacement policy made of two ordered classes, headroom first, each a {@link VictimClass} of one order.
 * {@link LruPolicy} and {@link PrefixLruPolicy} differ only in that order and in what a hit does.
 */
abstract class OrderedClassesPolicy implements ReplacementPolicy {
    private final VictimClass headroom;
    private final VictimClass normal;
    private long sequence;
    private long epoch;

    OrderedClassesPolicy(final Supplier<VictimClass> order) {
        this.headroom = order.get();
        this.normal = order.get();
    }

    @Override
    public final void onInsert(final Entry entry, final long groupEpoch, final int prefixIndex) {
        entry.sequence = ++sequence;
        entry.groupEpoch = groupEpoch;
        entry.prefixIndex = prefixIndex;
        if (!classOf(entry).add(entry)) {
            throw new IllegalStateException("entry inserted twice: " + entry);
        }
    }

    @Override
    public final void onHit(final Entry entry) {
        final VictimClass set = classOf(entry);
        if (!set.remove(entry)) {
            throw new IllegalStateException("hit on an entry the policy does not hold: " + entry);
        }
        entry.sequence = ++sequence;
        entry.groupEpoch = nextEpoch();
        entry.prefixIndex = 0;
        set.add(entry);
    }

    @Override
    public final void onRemove(final Entry entry) {
        if (!classOf(entry).remove(entry)) {
            throw new IllegalStateException("removing an entry the policy does not hold: " + entry);
        }
    }

    @Override
    public final Entry victim() {
        final Entry first = headroom.first();
        return first != null ? first : normal.first();
    }

    @Override
    public final long nextEpoch() {
        return ++epoch;
    }

    /** Entries held, both classes. */
    public final int size() {
        return headroom.size() + normal.size();
    }

    private VictimClass classOf(final Entry entry) {
        return entry.headroom ? headroom : normal;
    }
}
