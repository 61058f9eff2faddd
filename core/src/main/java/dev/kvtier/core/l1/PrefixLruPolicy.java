package dev.kvtier.core.l1;

import java.util.Comparator;

/**
 * Prefix-aware LRU: order {@code (groupEpoch, -prefixIndex, sequence)}, smallest evicted first. Inside one group the
 * suffix goes before the prefix; older groups before newer; a hit moves the entry to a fresh epoch outside its group.
 * Headroom entries still go first (invariant 4).
 */
public final class PrefixLruPolicy extends OrderedClassesPolicy {
    public PrefixLruPolicy() {
        super(new ByEpochSuffixSequence());
    }

    /**
     * {@code (groupEpoch, -prefixIndex, sequence)} ascending, written out (see {@link LruPolicy}'s comparator for why
     * not a chain of {@code Comparator.comparing...}).
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
