package dev.kvtier.core.l1;

/**
 * A read-only view of L1 for checkers and state dumps, and factories for policy tests that build entries without a
 * cache. The rules of a slice's life are {@link L1Cache}'s.
 *
 * @param pool    the allocator
 * @param entries the entry map
 * @param policy  the replacement policy
 */
public record L1Access(L1Pool pool, EntryMap entries, ReplacementPolicy policy) {

    /** A new slice for a lease the pool just gave. */
    public static Slice newSlice(final long poolOffset, final long lengthBytes) {
        return new Slice(poolOffset, lengthBytes);
    }

    /** A new entry covering all of {@code slice}. */
    public static Entry newEntry(final long fileOffset, final Slice slice, final boolean headroom) {
        return new Entry(fileOffset, slice.lengthBytes, slice, headroom);
    }
}
