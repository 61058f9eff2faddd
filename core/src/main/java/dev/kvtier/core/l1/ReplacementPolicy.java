package dev.kvtier.core.l1;

/**
 * The order in which resident L1 entries are evicted. Implementations keep their own ordered structures; they must
 * never depend on hash order. Every policy offered here evicts headroom (promoted) entries before any normal entry
 * (invariant 4); within a class the order is the policy's.
 */
public interface ReplacementPolicy {
    /**
     * An entry became resident.
     *
     * @param groupEpoch  the request group it was inserted with (a fresh value per grouped store or load)
     * @param prefixIndex its first slot's index inside that group
     */
    void onInsert(Entry entry, long groupEpoch, int prefixIndex);

    /** An entry was read (a hit): it becomes most recent (and leaves its group). */
    void onHit(Entry entry);

    /** An entry left the map (evicted, dropped as an overlap, or trimmed). */
    void onRemove(Entry entry);

    /** The next entry to evict, or {@code null} when none is resident. Does not remove it. */
    Entry victim();

    /** A fresh epoch for a new group (and for hits, which leave their group). */
    long nextEpoch();
}
