package dev.kvtier.core.l1;

/**
 * The store engine's access to L1's package-private state (slices' ownership counts, entry creation), and a read-only
 * view of L1 for checkers. Kept in one place so the rules for a slice's life are visible together: a slice is freed
 * exactly once, when it is neither resident nor owned by a pending write.
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

    public static void addPendingWrite(final Slice slice) {
        if (slice.freed) {
            throw new IllegalStateException("pending write on a freed slice at " + slice.poolOffset);
        }
        slice.pendingWrites++;
    }

    public static void removePendingWrite(final Slice slice) {
        if (slice.pendingWrites <= 0) {
            throw new IllegalStateException("slice at " + slice.poolOffset + " has no pending write");
        }
        slice.pendingWrites--;
    }

    public static void markFreed(final Slice slice) {
        if (slice.freed) {
            throw new IllegalStateException("slice at " + slice.poolOffset + " freed twice");
        }
        slice.freed = true;
    }
}
