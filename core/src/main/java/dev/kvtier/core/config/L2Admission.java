package dev.kvtier.core.config;

/**
 * Which keys the L2 directory admits (gives slots, so they are stored and written). Every stored block lives at an L2
 * address (L1 caches L2 ranges), so a key not admitted is stored in neither tier.
 */
public enum L2Admission {
    /** Every key asked for (the reference's behaviour). */
    ALL,
    /**
     * A key is admitted the second time it is asked for: its first allocation is answered {@code Skipped} with
     * {@code NOT_ADMITTED} and remembered among the last {@code l2Slots} such keys (oldest forgotten first); an
     * allocation of a remembered key is admitted and forgets it. Fewer drive writes for keys seen once, at the cost
     * of their first re-use. The memory of keys seen once is not persisted: after a restart every key is new.
     */
    SECOND_SIGHT
}
