package dev.kvtier.core.l1;

import java.util.Comparator;

/**
 * Prefix-aware LRU: order {@code (groupEpoch, -prefixIndex, sequence)}, smallest evicted first. Inside one group the
 * suffix goes before the prefix; older groups before newer; a hit moves the entry to a fresh epoch outside its group.
 * Headroom entries still go first (invariant 4).
 */
public final class PrefixLruPolicy extends OrderedClassesPolicy {
    public PrefixLruPolicy() {
        super(() -> VictimClass.ordered(new ByEpochSuffixSequence()));
    }

    /**
     * {@code (groupEpoch, -prefixIndex, sequence)} ascending, written out (not a chain of
     * {@code Comparator.comparing...}: its key extractors share one call site, which the JIT cannot inline once several
     * are in use).
     */
    private static final class ByEpochSuffixSequence implements Comparator<Entry> {
        @Override
        public int compare(final Entry a, final Entry b) {
            final int byEpoch = Long.compare(a.groupEpoch(), b.groupEpoch());
            if (byEpoch != 0) {
                return byEpoch;
            }
            final int bySuffix = Integer.compare(b.prefixIndex(), a.prefixIndex());
            return bySuffix != 0 ? bySuffix : Long.compare(a.sequence(), b.sequence());
        }
    }
}
