package dev.kvtier.core.l1;

import java.util.Comparator;

/**
 * Prefix-aware LRU: order {@code (groupEpoch, -prefixIndex, sequence)}, smallest evicted first. Inside one group the
 * suffix goes before the prefix; older groups before newer; a hit moves the entry to a fresh epoch outside its group.
 * Headroom entries still go first (invariant 4).
 */
public final class PrefixLruPolicy extends OrderedClassesPolicy {
    public PrefixLruPolicy() {
        super(Comparator.comparingLong(Entry::groupEpoch)
            .thenComparing(Comparator.comparingInt(Entry::prefixIndex).reversed())
            .thenComparingLong(Entry::sequence));
    }
}
