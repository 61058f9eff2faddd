package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The directory checker at the edges its firing cases in {@link CheckerFiresTest} left open (each found by mutating the
 * checker with PIT): a key at the key map's first position, chunks that touch without overlapping, evictions by a
 * wrap, wraps and skips at the ring's exact fit, recovered chunks, refusals as COMMITTED and the eviction a checksum
 * mismatch owes. Each case is a right sequence that must pass or a wrong one that must fire. The ring has 64 slots.
 */
class DirectoryCheckerEdgesTest {

    private static PrefixKey k(final int i) {
        return new PrefixKey(i, i);
    }

    /** A key whose home in the checker's key map (sized for 64 slots) is position 0. */
    private static PrefixKey keyAtFirstPosition() {
        for (int i = 1;; i++) {
            if (new ChunkKeys<String>(64).insert(i, i, 0, 0, "c") == 0) {
                return k(i);
            }
        }
    }

    private static void feed(final CoreEvent... events) {
        CheckerFeed.passes(new DirectoryChecker(), CONFIG, events);
    }

    private static Invariant fired(final CoreEvent... events) {
        return assertThrows(InvariantViolation.class, () -> feed(events)).invariant();
    }

    private static CoreEvent.AllocateRequested asked(final PrefixKey key, final int slots) {
        return new CoreEvent.AllocateRequested(1, 1, List.of(key), slots);
    }

    private static CoreEvent.Allocated at(final int key, final int startSlot, final int slots) {
        return new CoreEvent.Allocated(key, k(key), key, startSlot, slots);
    }

    private static CoreEvent.RingEvicted evicted(final int key, final int startSlot, final int slots,
                                                 final RingEvictReason reason) {
        return new CoreEvent.RingEvicted(k(key), key, startSlot, slots, false, 0, reason);
    }

    /** Key i's request and allocation of {@code slots} slots at {@code startSlot}: allocation id i. */
    private static CoreEvent[] alloc(final int key, final int startSlot, final int slots) {
        return new CoreEvent[] {asked(k(key), slots), at(key, startSlot, slots)};
    }

    private static CoreEvent[] seq(final Object... parts) {
        final List<CoreEvent> out = new ArrayList<>();
        for (final Object p : parts) {
            if (p instanceof CoreEvent[] a) {
                out.addAll(List.of(a));
            } else {
                out.add((CoreEvent) p);
            }
        }
        return out.toArray(CoreEvent[]::new);
    }

    @Test
    void aKeyAtTheKeyMapsFirstPositionIsSeenLikeAnyOther() {
        final PrefixKey z = keyAtFirstPosition();
        feed(asked(z, 1), new CoreEvent.Allocated(1, z, 1, 0, 1),
            asked(z, 1), new CoreEvent.AllocationSkipped(1, z, SkipReason.CLAIMED),
            new CoreEvent.ClaimReleased(new AllocationRef(z, 1, 0, 1), true),
            asked(z, 1), new CoreEvent.Allocated(2, z, 2, 1, 1),
            new CoreEvent.Committed(z, 2),
            asked(z, 1), new CoreEvent.AllocationSkipped(3, z, SkipReason.COMMITTED),
            new CoreEvent.Lookup(1, List.of(z), 1),
            new CoreEvent.LateCommit(z, 1),
            new CoreEvent.RingEvicted(z, 2, 1, 1, true, 0, RingEvictReason.WRITE_FAILED));
        assertEquals(Invariant.STALE_NOTHING, fired(asked(z, 1), new CoreEvent.Allocated(1, z, 1, 0, 1),
            asked(z, 1), new CoreEvent.Allocated(2, z, 2, 1, 1)), "a second writer");
        assertEquals(Invariant.STALE_NOTHING, fired(asked(z, 1), new CoreEvent.Allocated(1, z, 1, 0, 1),
            new CoreEvent.LateCommit(z, 1)), "a commit of the current allocation counted as late");
        assertEquals(Invariant.STALE_NOTHING, fired(asked(z, 1), new CoreEvent.Allocated(1, z, 1, 0, 1),
            asked(z, 65), new CoreEvent.AllocationSkipped(2, z, SkipReason.TOO_LARGE)), "too large, but claimed");
    }

    /**
     * A lap and a half: chunks that end where the next starts, a wrap whose tail holds two chunks of the previous
     * lap (one exactly at head) evicted by the wrap, evictions for space of the oldest, a lookup that finds a
     * committed key, and a failed write that evicts a chunk that is not the oldest.
     */
    @Test
    void aRightLapAndAHalfOfTheRingPasses() {
        feed(seq(alloc(1, 0, 10), alloc(2, 10, 40), alloc(3, 50, 5), alloc(4, 55, 5),
            asked(k(5), 10), new CoreEvent.RingWrapped(60, 4), evicted(1, 0, 10, RingEvictReason.SPACE),
            at(5, 0, 10),
            asked(k(6), 40), evicted(2, 10, 40, RingEvictReason.SPACE), at(6, 10, 40),
            asked(k(7), 20), evicted(3, 50, 5, RingEvictReason.WRAP), evicted(4, 55, 5, RingEvictReason.WRAP),
            new CoreEvent.RingWrapped(50, 14), evicted(5, 0, 10, RingEvictReason.SPACE),
            evicted(6, 10, 40, RingEvictReason.SPACE), at(7, 0, 20),
            new CoreEvent.Committed(k(7), 7), alloc(8, 20, 10),
            new CoreEvent.Lookup(1, List.of(k(7), k(8)), 1),
            evicted(8, 20, 10, RingEvictReason.WRITE_FAILED),
            asked(k(9), 0), new CoreEvent.AllocationSkipped(1, k(9), SkipReason.TOO_LARGE)));
    }

    @Test
    void ringFiresOnAnAllocationOverAChunkTheWrapLeftLive() {
        assertEquals(Invariant.RING, fired(seq(alloc(1, 0, 40), asked(k(2), 40), new CoreEvent.RingWrapped(40, 24),
            at(2, 0, 40))));
    }

    @Test
    void ringFiresOnAnAllocationOfNoSlots() {
        assertEquals(Invariant.RING, fired(alloc(1, 0, 0)));
    }

    /** Head at 40 after a lap [0, 40) [40, 64): 24 slots fit exactly, so nothing wraps. */
    @Test
    void ringFiresOnAWrapOrAWrapEvictionWhereTheAllocationFitsExactly() {
        final CoreEvent[] lap = seq(alloc(1, 0, 40), alloc(2, 40, 24), asked(k(3), 40),
            evicted(1, 0, 40, RingEvictReason.SPACE), at(3, 0, 40));
        assertEquals(Invariant.RING, fired(seq(lap, asked(k(4), 24), evicted(2, 40, 24, RingEvictReason.WRAP))));
        assertEquals(Invariant.RING, fired(seq(alloc(1, 0, 40), asked(k(2), 24), new CoreEvent.RingWrapped(40, 24))));
        assertEquals(Invariant.RING, fired(seq(lap, evicted(2, 40, 24, RingEvictReason.WRITE_FAILED),
            asked(k(4), 30), evicted(3, 0, 40, RingEvictReason.WRAP))), "a wrap evicts only the tail from head");
    }

    @Test
    void ringFiresOnASpaceEvictionOfTheChunkRightAfterThePlacement() {
        assertEquals(Invariant.RING, fired(seq(alloc(1, 0, 40), alloc(2, 40, 20), asked(k(3), 40),
            new CoreEvent.RingWrapped(60, 4), evicted(1, 0, 40, RingEvictReason.SPACE),
            evicted(2, 40, 20, RingEvictReason.SPACE))));
    }

    @Test
    void ringFiresOnAWrapPastALiveChunkAtSlotZero() {
        assertEquals(Invariant.RING, fired(seq(alloc(1, 0, 40), alloc(2, 40, 24), asked(k(3), 65),
            new CoreEvent.RingWrapped(0, 64))));
    }

    @Test
    void staleFiresOnATooLargeSkipOfWhatFits() {
        assertEquals(Invariant.STALE_NOTHING, fired(asked(k(1), 10),
            new CoreEvent.AllocationSkipped(1, k(1), SkipReason.TOO_LARGE)));
        assertEquals(Invariant.STALE_NOTHING, fired(asked(k(1), 64),
            new CoreEvent.AllocationSkipped(1, k(1), SkipReason.TOO_LARGE)), "the whole ring fits");
    }

    /** Recovered chunks are committed, head follows the newest, and they may not overlap or pass the end. */
    @Test
    void recoveredChunksAreCommittedAndDisjoint() {
        feed(new CoreEvent.ChunkRecovered(k(1), 1, 1, 0, 10), new CoreEvent.ChunkRecovered(k(2), 1, 2, 10, 5),
            new CoreEvent.Lookup(1, List.of(k(1), k(2)), 2),
            asked(k(3), 10), at(3, 15, 10));
        assertEquals(Invariant.RING, fired(new CoreEvent.ChunkRecovered(k(1), 1, 1, 0, 10),
            new CoreEvent.ChunkRecovered(k(2), 1, 2, 5, 10)), "overlapping from below");
        assertEquals(Invariant.RING, fired(new CoreEvent.ChunkRecovered(k(1), 1, 1, 60, 10)), "past the end");
    }

    @Test
    void aSpanRejectedAsCommittedMustNameACurrentCommittedAllocation() {
        final CoreEvent committed = new CoreEvent.Committed(k(1), 1);
        final CoreEvent refused = new CoreEvent.SpanRejected(9, k(1), 1, 0, 4096, RejectReason.COMMITTED);
        feed(seq(alloc(1, 0, 1), committed, refused));
        assertEquals(Invariant.STALE_NOTHING, fired(seq(alloc(1, 0, 1), refused)), "a claim, not committed");
        assertEquals(Invariant.STALE_NOTHING, fired(seq(alloc(1, 0, 1), committed,
            new CoreEvent.SpanRejected(9, k(1), 2, 0, 4096, RejectReason.COMMITTED))), "another allocation");
        assertEquals(Invariant.STALE_NOTHING, fired(seq(alloc(1, 0, 1), committed,
            evicted(1, 0, 1, RingEvictReason.CORRUPT), refused)), "no longer current");
    }

    @Test
    void aChecksumMismatchMustTakeItsChunkOutOfTheRingBeforeTheNextInput() {
        // Key 1 holds slots [2, 5); slot 3 (file offset 3 x 4096) fails its checksum in load 40.
        final CoreEvent mismatch = new CoreEvent.ChecksumMismatch(40, 3 * 4096, 4096, 1);
        final CoreEvent next = new CoreEvent.DrainRequested();
        final CoreEvent[] before = seq(alloc(9, 0, 2), alloc(1, 2, 3), new CoreEvent.Committed(k(1), 1));
        feed(seq(before, mismatch, new CoreEvent.LoadFailed(40, CoreEvent.LoadFailure.CORRUPT),
            evicted(1, 2, 3, RingEvictReason.CORRUPT), next));
        feed(seq(before, mismatch, evicted(1, 2, 3, RingEvictReason.WRITE_FAILED), next)); // gone for any reason
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> feed(seq(before, mismatch,
            new CoreEvent.LoadFailed(40, CoreEvent.LoadFailure.CORRUPT), next)));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
        assertEquals(Invariant.LOAD_BYTES, fired(seq(before, mismatch)), "nor by the end of the run");
        assertEquals(Invariant.LOAD_BYTES, fired(seq(before, mismatch, evicted(9, 0, 2, RingEvictReason.CORRUPT),
            next)), "another chunk's eviction does not count");
    }
}
