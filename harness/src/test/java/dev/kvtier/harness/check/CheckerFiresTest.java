package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each invariant family fires on a deliberately wrong event sequence (and stays quiet on the right one). The
 * sequences are what a broken core would emit.
 */
class CheckerFiresTest {

    private static PrefixKey k(final int i) {
        return new PrefixKey(i, i);
    }

    private static AllocationRef ref(final int i) {
        return new AllocationRef(k(i), i, i, 1);
    }

    private static void feed(final Checker c, final CoreConfig config, final CoreEvent... events) {
        CheckerFeed.passes(c, config, events);
    }

    private static Invariant fired(final Checker c, final CoreConfig config, final CoreEvent... events) {
        return assertThrows(InvariantViolation.class, () -> feed(c, config, events)).invariant();
    }

    private static CoreEvent.EntryInserted stored(final long store, final int slot, final long pool, final int idx) {
        return new CoreEvent.EntryInserted(store, slot * S, S, pool, idx * S, false, idx);
    }

    @Test
    void capacityFiresWhenResidentExceedsL1() {
        final CoreEvent[] ok = new CoreEvent[4];
        for (int i = 0; i < 4; i++) {
            ok[i] = new CoreEvent.EntryInserted(1, i * S, S, i * S, 0, false, 0);
        }
        feed(new CapacityChecker(new CheckContext(CONFIG)), CONFIG, ok);
        final CoreEvent[] bad = new CoreEvent[5];
        for (int i = 0; i < 5; i++) {
            bad[i] = new CoreEvent.EntryInserted(1, i * S, S, i * S, 0, false, 0);
        }
        assertEquals(Invariant.CAPACITY, fired(new CapacityChecker(new CheckContext(CONFIG)), CONFIG, bad));
    }

    @Test
    void trimBoundFiresWhenAStoreLeavesTooMuchResident() {
        final CapacityChecker c = new CapacityChecker(new CheckContext(CONFIG));
        assertEquals(Invariant.TRIM_BOUND, fired(c, CONFIG,
            new CoreEvent.EntryInserted(1, 0, 2 * S, 0, 0, false, 0),
            new CoreEvent.EntryInserted(1, 2 * S, 2 * S, 2 * S, 0, false, 0),
            new CoreEvent.Trimmed(1, 3 * S, 4 * S, 4 * S, 0)));
    }

    @Test
    void trimBoundFiresWhenAStoreCompletesWithoutItsTrim() {
        assertEquals(Invariant.TRIM_BOUND, fired(new CapacityChecker(new CheckContext(CONFIG)), CONFIG,
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0),
            new CoreEvent.StoreCompleted(1, 1, 0, S)));
        feed(new CapacityChecker(new CheckContext(CONFIG)), CONFIG,
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0),
            new CoreEvent.Trimmed(1, 3 * S, S, S, 0),
            new CoreEvent.StoreCompleted(1, 1, 0, S));
    }

    @Test
    void structureFiresOnOverlappingEntries() {
        final long[] resident = {0};
        final StructureChecker c = new StructureChecker(() -> 2, () -> resident[0]);
        resident[0] = 2 * S;
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(c, CONFIG,
            new CoreEvent.EntryInserted(1, 0, 2 * S, 0, 0, false, 0),
            new CoreEvent.EntryInserted(1, S, S, 2 * S, 0, false, 0)));
    }

    @Test
    void structureFiresWhenTheCoreIndexDisagrees() {
        final StructureChecker c = new StructureChecker(() -> 0, () -> 0);
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(c, CONFIG,
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0)));
    }

    @Test
    void headroomFirstFiresWhenANormalEntryGoesFirst() {
        final EvictionOrderChecker c = new EvictionOrderChecker(ReplacementKind.LRU);
        assertEquals(Invariant.HEADROOM_FIRST, fired(c, CONFIG,
            new CoreEvent.StoreReceived(1, 1, S),
            stored(1, 0, 0, 0),
            new CoreEvent.LoadRequested(2, List.of(), S),
            new CoreEvent.EntryInserted(2, 5 * S, S, S, -1, true, 0),
            new CoreEvent.EntryEvicted(0, S, 0, false, false, L1EvictReason.RESERVE)));
    }

    @Test
    void victimOrderFiresWhenLruIsNotFollowed() {
        final EvictionOrderChecker c = new EvictionOrderChecker(ReplacementKind.LRU);
        assertEquals(Invariant.VICTIM_ORDER, fired(c, CONFIG,
            new CoreEvent.StoreReceived(1, 2, 2 * S),
            stored(1, 0, 0, 0),
            stored(1, 1, S, 1),
            new CoreEvent.EntryEvicted(S, S, S, false, false, L1EvictReason.TRIM)));
    }

    @Test
    void victimOrderUnderLruFollowsAHitPastManyEntries() {
        // 100 entries (past a block of the checker's map by sequence); a hit on entry 3 sends it last.
        final List<CoreEvent> events = new ArrayList<>();
        events.add(new CoreEvent.StoreReceived(1, 100, 100 * S));
        for (int i = 0; i < 100; i++) {
            events.add(stored(1, i, i * S, i));
        }
        events.add(new CoreEvent.LoadHit(2, 3 * S, S));
        final List<CoreEvent> early = new ArrayList<>(events);
        for (int i = 0; i < 100; i++) {
            if (i != 3) {
                events.add(new CoreEvent.EntryEvicted(i * S, S, i * S, false, false, L1EvictReason.TRIM));
            }
            if (i < 3) {
                early.add(new CoreEvent.EntryEvicted(i * S, S, i * S, false, false, L1EvictReason.TRIM));
            }
        }
        events.add(new CoreEvent.EntryEvicted(3 * S, S, 3 * S, false, false, L1EvictReason.TRIM));
        feed(new EvictionOrderChecker(ReplacementKind.LRU), CONFIG, events.toArray(CoreEvent[]::new));
        early.add(new CoreEvent.EntryEvicted(3 * S, S, 3 * S, false, false, L1EvictReason.TRIM));
        assertEquals(Invariant.VICTIM_ORDER, fired(new EvictionOrderChecker(ReplacementKind.LRU), CONFIG,
            early.toArray(CoreEvent[]::new)), "entry 3 was hit: entry 4 is the victim");
    }

    @Test
    void victimOrderFiresWhenPrefixLruEvictsThePrefixFirst() {
        final EvictionOrderChecker c = new EvictionOrderChecker(ReplacementKind.PREFIX_LRU);
        assertEquals(Invariant.VICTIM_ORDER, fired(c, CONFIG,
            new CoreEvent.StoreReceived(1, 2, 2 * S),
            stored(1, 0, 0, 0),
            stored(1, 1, S, 1),
            new CoreEvent.EntryEvicted(0, S, 0, false, false, L1EvictReason.TRIM)));
        feed(new EvictionOrderChecker(ReplacementKind.PREFIX_LRU), CONFIG,
            new CoreEvent.StoreReceived(1, 2, 2 * S), stored(1, 0, 0, 0), stored(1, 1, S, 1),
            new CoreEvent.EntryEvicted(S, S, S, false, false, L1EvictReason.TRIM));
    }

    @Test
    void sliceOwnershipFiresWhenAPendingWritesSliceIsFreed() {
        final SliceOwnershipChecker c = new SliceOwnershipChecker();
        assertEquals(Invariant.SLICE_OWNERSHIP, fired(c, CONFIG,
            new CoreEvent.SliceReserved(1, 0, S, 0),
            stored(1, 0, 0, 0),
            new CoreEvent.BatchSealed(1, 1, 0, S, 1, 0, SealReason.END_OF_STORE),
            new CoreEvent.EntryEvicted(0, S, 0, false, true, L1EvictReason.TRIM),
            new CoreEvent.SliceFreed(0, S)));
    }

    @Test
    void sliceOwnershipCountsAnEntryInAnOpenBatchAsWriteOwned() {
        feed(new SliceOwnershipChecker(), CONFIG,
            new CoreEvent.SliceReserved(1, 0, S, 0),
            stored(1, 0, 0, 0),
            new CoreEvent.EntryEvicted(0, S, 0, false, true, L1EvictReason.RESERVE),
            new CoreEvent.BatchSealed(1, 1, 0, S, 1, 0, SealReason.MEMORY_WAIT),
            new CoreEvent.WriteFinished(1, 0, S, true),
            new CoreEvent.SliceFreed(0, S));
        assertEquals(Invariant.SLICE_OWNERSHIP, fired(new SliceOwnershipChecker(), CONFIG,
            new CoreEvent.SliceReserved(1, 0, S, 0),
            stored(1, 0, 0, 0),
            new CoreEvent.EntryEvicted(0, S, 0, false, true, L1EvictReason.RESERVE),
            new CoreEvent.SliceFreed(0, S)));
    }

    @Test
    void sliceOwnershipFiresWhenALiveSliceIsReused() {
        assertEquals(Invariant.SLICE_OWNERSHIP, fired(new SliceOwnershipChecker(), CONFIG,
            new CoreEvent.SliceReserved(1, 0, 2 * S, 0),
            new CoreEvent.SliceReserved(2, 5 * S, S, S)));
    }

    @Test
    void spanOrderFiresWhenCoalescingOffReordersSpans() {
        final CoreConfig off = CONFIG.toBuilder().coalesceStoreSpans(false).build();
        final List<SpanPiece> sent = List.of(new SpanPiece(ref(1), 0, S, S), new SpanPiece(ref(2), S, 2 * S, S));
        assertEquals(Invariant.SPAN_ORDER_OFF, fired(new SpanChecker(), off,
            new CoreEvent.StoreSent(9, sent),
            new CoreEvent.EntryInserted(9, 2 * S, S, 0, S, false, 1)));
    }

    @Test
    void coalescingFiresWhenAnEntryJoinsNonContiguousSpans() {
        final List<SpanPiece> sent = List.of(new SpanPiece(ref(1), 0, S, S), new SpanPiece(ref(3), 2 * S, 2 * S, S));
        assertEquals(Invariant.SPAN_COALESCE_ON, fired(new SpanChecker(), CONFIG,
            new CoreEvent.StoreSent(9, sent),
            new CoreEvent.EntryInserted(9, S, 2 * S, 0, 0, false, 0)));
    }

    @Test
    void stagingFiresWhenSlotsLeaveThePrefixOrder() {
        final List<StoreSpec> specs = List.of(StoreSpec.of(ref(1), List.of(0), S), StoreSpec.of(ref(2), List.of(1), S));
        assertEquals(Invariant.STAGING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.SaveQueued(5, specs, 1, 2 * S),
            new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(2), 0, 2 * S, S), new SpanPiece(ref(1), S, S, S)))));
    }

    @Test
    void stagingHoldsForSlotsInPrefixOrderAndNamesTheSlotItWanted() {
        final List<StoreSpec> specs = List.of(StoreSpec.of(new AllocationRef(k(1), 1, 1, 2), List.of(0, 1), S),
            StoreSpec.of(ref(2), List.of(2), S));
        feed(new SpanChecker(), CONFIG, new CoreEvent.SaveQueued(5, specs, 2, 3 * S),
            new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(specs.getFirst().alloc(), 0, S, 2 * S))),
            new CoreEvent.BatchSent(5, 1, 10),
            new CoreEvent.StoreSent(10, List.of(new SpanPiece(ref(2), 0, 2 * S, S))),
            new CoreEvent.RequestCommitted(5, 2, 0));
        final InvariantViolation swapped = assertThrows(InvariantViolation.class, () -> feed(new SpanChecker(), CONFIG,
            new CoreEvent.SaveQueued(5, specs, 1, 3 * S), new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(2), 0, S, S)))));
        assertTrue(swapped.getMessage().contains("prefix order wants Slot[allocationId=1, fileOffset=" + S + "]"),
            swapped.getMessage());
        final InvariantViolation extra = assertThrows(InvariantViolation.class, () -> feed(new SpanChecker(), CONFIG,
            new CoreEvent.SaveQueued(5, List.of(specs.get(1)), 1, S), new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(2), 0, 2 * S, 2 * S)))));
        assertTrue(extra.getMessage().contains("prefix order wants null"), extra.getMessage());
    }

    @Test
    void stagingFiresWhenABatchExceedsItsBound() {
        final List<StoreSpec> specs = List.of(StoreSpec.of(new AllocationRef(k(1), 1, 1, 3), List.of(0, 1, 2), S));
        assertEquals(Invariant.STAGING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.SaveQueued(5, specs, 1, 3 * S),
            new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(specs.getFirst().alloc(), 0, S, 3 * S)))));
    }

    @Test
    void writeOrderFiresWhenALaterOverlappingWriteFinishesFirst() {
        assertEquals(Invariant.WRITE_ORDER, fired(new WriteOrderChecker(), CONFIG,
            new CoreEvent.BatchSealed(1, 1, 0, 2 * S, 1, 0, SealReason.END_OF_STORE),
            new CoreEvent.BatchSealed(2, 2, S, S, 1, 1, SealReason.END_OF_STORE),
            new CoreEvent.WriteFinished(2, S, S, true)));
    }

    @Test
    void lookupFiresWhenAnUncommittedKeyIsVisible() {
        assertEquals(Invariant.LOOKUP_PREFIX, fired(new DirectoryChecker(), CONFIG,
            new CoreEvent.AllocateRequested(1, 1, List.of(k(1)), 1),
            new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.Lookup(1, List.of(k(1)), 1)));
    }

    @Test
    void lookupFiresWhenAnotherModelsKeyIsReturned() {
        assertEquals(Invariant.LOOKUP_PREFIX, fired(new DirectoryChecker(), CONFIG,
            new CoreEvent.AllocateRequested(1, 2, List.of(k(1)), 1),
            new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.Committed(k(1), 1),
            new CoreEvent.Lookup(1, List.of(k(1)), 1)));
    }

    @Test
    void boundaryFiresWhenAMisalignedSpanIsAdmitted() {
        assertEquals(Invariant.STALE_NOTHING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(1), 0, S + 512, S))),
            new CoreEvent.SpansCoalesced(9, 1, 1)));
    }

    @Test
    void boundaryFiresWhenASpanInsideItsAllocationIsRejectedAsOutside() {
        assertEquals(Invariant.STALE_NOTHING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(1), 0, S, S))),
            new CoreEvent.SpanRejected(9, k(1), 1, S, S, RejectReason.OUTSIDE_ALLOCATION),
            new CoreEvent.SpansCoalesced(9, 1, 0)));
    }

    @Test
    void boundaryFiresWhenASpanLargerThanL1IsAdmittedOrAFittingOneIsRejectedAsLarger() {
        final AllocationRef big = new AllocationRef(k(8), 8, 8, 5);
        final CoreConfig staging = CONFIG.toBuilder().stagingPoolBytes(8 * S).build();
        assertEquals(Invariant.STALE_NOTHING, fired(new SpanChecker(), staging,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(big, 0, 8 * S, 5 * S))),
            new CoreEvent.SpansCoalesced(9, 1, 1)));
        assertEquals(Invariant.STALE_NOTHING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(1), 0, S, S))),
            new CoreEvent.SpanRejected(9, k(1), 1, S, S, RejectReason.LARGER_THAN_L1),
            new CoreEvent.SpansCoalesced(9, 1, 0)));
        feed(new SpanChecker(), staging,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(big, 0, 8 * S, 5 * S))),
            new CoreEvent.SpanRejected(9, k(8), 8, 8 * S, 5 * S, RejectReason.LARGER_THAN_L1),
            new CoreEvent.SpansCoalesced(9, 1, 0));
    }

    @Test
    void livenessFiresWhenAShutdownNeverCompletes() {
        assertEquals(Invariant.LIVENESS, fired(new LivenessChecker(1_000_000_000L, 0), CONFIG,
            new CoreEvent.ShutdownRequested()));
        feed(new LivenessChecker(1_000_000_000L, 0), CONFIG, new CoreEvent.ShutdownRequested(),
            new CoreEvent.ShutdownCompleted(false));
    }

    @Test
    void boundaryIsQuietWhenBadSpansAreRejectedForTheirReason() {
        feed(new SpanChecker(), CONFIG,
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(ref(1), 0, 2 * S, S),
                new SpanPiece(ref(2), S, 2 * S + 512, S))),
            new CoreEvent.SpanRejected(9, k(1), 1, 2 * S, S, RejectReason.OUTSIDE_ALLOCATION),
            new CoreEvent.SpanRejected(9, k(2), 2, 2 * S + 512, S, RejectReason.MISALIGNED),
            new CoreEvent.SpansCoalesced(9, 2, 0));
    }

    @Test
    void staleFiresWhenAStaleAllocationIsCommitted() {
        assertEquals(Invariant.STALE_NOTHING, fired(new SpanChecker(), CONFIG,
            new CoreEvent.SpanRejected(9, k(1), 1, 0, S, RejectReason.STALE),
            new CoreEvent.Committed(k(1), 1)));
    }

    private static CoreEvent.AllocateRequested asked(final int key, final int slots) {
        return new CoreEvent.AllocateRequested(key, 1, List.of(k(key)), slots);
    }

    @Test
    void staleFiresOnASecondWriter() {
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            asked(1, 1), new CoreEvent.Allocated(2, k(1), 2, 1, 1)));
    }

    /** A commit of a key's old allocation, or of a key with none, while another allocation of it is current. */
    @Test
    void staleFiresOnACommitOfAnAllocationThatIsNotCurrent() {
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.Committed(k(1), 2)));
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.Committed(k(2), 1)));
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.LateCommit(k(1), 1)));
        feed(new DirectoryChecker(), CONFIG, asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.LateCommit(k(1), 2), new CoreEvent.Committed(k(1), 1));
    }

    @Test
    void staleFiresWhenASkipGivesTheWrongReason() {
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            asked(1, 1), new CoreEvent.AllocationSkipped(1, k(1), CoreEvent.SkipReason.COMMITTED)));
        feed(new DirectoryChecker(), CONFIG, asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            asked(1, 1), new CoreEvent.AllocationSkipped(1, k(1), CoreEvent.SkipReason.CLAIMED),
            asked(2, 65), new CoreEvent.AllocationSkipped(2, k(2), CoreEvent.SkipReason.TOO_LARGE));
    }

    @Test
    void ringFiresOnOverlappingChunks() {
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 2), new CoreEvent.Allocated(1, k(1), 1, 0, 2),
            asked(2, 1), new CoreEvent.Allocated(1, k(2), 2, 1, 1)));
    }

    /** An eviction (here for a failed write, which may take any chunk) of an allocation that is not the key's. */
    @Test
    void ringFiresOnAnEvictionOfAnAllocationThatIsNotLive() {
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.RingEvicted(k(1), 9, 0, 1, false, 0, RingEvictReason.WRITE_FAILED)));
        feed(new DirectoryChecker(), CONFIG, asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.RingEvicted(k(1), 1, 0, 1, false, 0, RingEvictReason.WRITE_FAILED));
    }

    /** Only an uncommitted claim can be released. */
    @Test
    void staleFiresOnAReleaseOfACommittedAllocation() {
        final AllocationRef ref = new AllocationRef(k(1), 1, 0, 1);
        assertEquals(Invariant.STALE_NOTHING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1), new CoreEvent.Committed(k(1), 1),
            new CoreEvent.ClaimReleased(ref, true)));
        feed(new DirectoryChecker(), CONFIG, asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            new CoreEvent.ClaimReleased(ref, true), asked(1, 1), new CoreEvent.Allocated(1, k(1), 2, 1, 1));
    }

    @Test
    void ringFiresWhenEvictionSkipsTheOldest() {
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 1), new CoreEvent.Allocated(1, k(1), 1, 0, 1),
            asked(2, 1), new CoreEvent.Allocated(1, k(2), 2, 1, 1),
            new CoreEvent.RingEvicted(k(2), 2, 1, 1, false, 0, RingEvictReason.SPACE)));
    }

    @Test
    void ringWrapsExactlyWhenTheRunDoesNotFitBeforeTheEnd() {
        // 64 slots: 40 at 0, then 40 more do not fit at head 40: the tail [40, 64) is skipped and the first evicted.
        feed(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 40), new CoreEvent.RingWrapped(40, 24),
            new CoreEvent.RingEvicted(k(1), 1, 0, 40, false, 0, RingEvictReason.SPACE),
            new CoreEvent.Allocated(2, k(2), 2, 0, 40),
            asked(3, 24), new CoreEvent.Allocated(3, k(3), 3, 40, 24));
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 40), new CoreEvent.Allocated(2, k(2), 2, 40, 40)), "no wrap where one was needed");
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 20), new CoreEvent.RingWrapped(40, 24)), "a wrap where the run fits");
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 40), new CoreEvent.RingWrapped(41, 23)), "a wrap that does not start at head");
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 10), new CoreEvent.RingEvicted(k(1), 1, 0, 40, false, 0, RingEvictReason.SPACE)),
            "a space eviction of a chunk the placement does not touch");
    }

    @Test
    void ringFiresWhenAWrapLeavesAChunkOfThePreviousLapLive() {
        assertEquals(Invariant.RING, fired(new DirectoryChecker(), CONFIG,
            asked(1, 40), new CoreEvent.Allocated(1, k(1), 1, 0, 40),
            asked(2, 20), new CoreEvent.Allocated(2, k(2), 2, 40, 20),
            asked(3, 10), new CoreEvent.RingWrapped(60, 4),
            asked(4, 10), new CoreEvent.RingEvicted(k(1), 1, 0, 40, false, 0, RingEvictReason.SPACE),
            new CoreEvent.Allocated(4, k(4), 4, 0, 10),
            asked(5, 30), new CoreEvent.Allocated(5, k(5), 5, 10, 30),
            asked(6, 30), new CoreEvent.RingWrapped(40, 24)));
    }

    @Test
    void writeOrderFiresWhenABatchExceedsItsBound() {
        final CoreConfig small = CONFIG.toBuilder().groupedWriteBatchBytes(2 * S).build();
        assertEquals(Invariant.WRITE_ORDER, fired(new WriteOrderChecker(), small,
            stored(1, 0, 0, 0), stored(1, 1, S, 1), stored(1, 2, 2 * S, 2),
            new CoreEvent.BatchSealed(1, 1, 0, 3 * S, 3, 0, SealReason.END_OF_STORE),
            new CoreEvent.WriteFinished(1, 0, 3 * S, true)));
        feed(new WriteOrderChecker(), small,
            new CoreEvent.EntryInserted(1, 0, 3 * S, 0, 0, false, 0),
            new CoreEvent.BatchSealed(1, 1, 0, 3 * S, 1, 0, SealReason.END_OF_STORE),
            new CoreEvent.WriteFinished(1, 0, 3 * S, true));
    }

    @Test
    void capacityFiresWhenALoadHasMoreReadsInFlightThanABatch() {
        final CoreConfig two = CONFIG.toBuilder().readBatchMax(2).build();
        assertEquals(Invariant.CAPACITY, fired(new ReadBatchChecker(), two,
            new CoreEvent.LoadRequested(7, List.of(), 3 * S),
            new CoreEvent.SliceReserved(7, 0, S, 0),
            new CoreEvent.SliceReserved(7, S, S, S),
            new CoreEvent.SliceReserved(7, 2 * S, S, 2 * S)));
        feed(new ReadBatchChecker(), two,
            new CoreEvent.LoadRequested(7, List.of(), 3 * S),
            new CoreEvent.SliceReserved(7, 0, S, 0),
            new CoreEvent.SliceReserved(7, S, S, S),
            new CoreEvent.Promoted(7, 0, S),
            new CoreEvent.PromotionDiscarded(7, S, S, CoreEvent.DiscardReason.SUPERSEDED),
            new CoreEvent.SliceReserved(7, 2 * S, S, 2 * S),
            new CoreEvent.SliceReserved(9, 2 * S, S, 3 * S));
        assertEquals(Invariant.CAPACITY, fired(new ReadBatchChecker(), two,
            new CoreEvent.LoadRequested(7, List.of(), 3 * S),
            new CoreEvent.SliceReserved(7, 0, 5 * S, 0)), "a read larger than L1");
    }

    @Test
    void trimBoundFiresWhenTheTrimAimsElsewhereThanTheSpec() {
        // l1 = 4 slots, ratio 20: H = 4096 (one slot), saveTarget = 3 slots; one slot stored: target max(1, 3) = 3.
        assertEquals(Invariant.TRIM_BOUND, fired(new CapacityChecker(new CheckContext(CONFIG)), CONFIG,
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0),
            new CoreEvent.Trimmed(1, 4 * S, S, S, 0)));
        assertEquals(Invariant.TRIM_BOUND, fired(new CapacityChecker(new CheckContext(CONFIG)), CONFIG,
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0),
            new CoreEvent.Trimmed(1, 3 * S, S, S, 0),
            new CoreEvent.StoreCompleted(1, 1, 0, 2 * S)), "a store that says it stored what it did not insert");
    }

    @Test
    void livenessFiresOnADoubleRelease() {
        assertEquals(Invariant.LIVENESS, fired(new LivenessChecker(1_000), CONFIG,
            new CoreEvent.SaveQueued(5, List.of(), 0, 0),
            new CoreEvent.RequestReleased(5),
            new CoreEvent.RequestReleased(5)));
    }

    @Test
    void livenessFiresWhenARequestNeverFinishes() {
        assertEquals(Invariant.LIVENESS, fired(new LivenessChecker(1_000), CONFIG,
            new CoreEvent.RequestArrived(1, "cold", 4, 0)));
    }

    @Test
    void livenessFiresWhenAStoreNeverCompletes() {
        assertEquals(Invariant.LIVENESS, fired(new LivenessChecker(1_000), CONFIG,
            new CoreEvent.StoreReceived(1, 1, S)));
    }

    @Test
    void loadBytesIsReportedByTheDriver() {
        final InvariantChecker c = new InvariantChecker(CONFIG, () -> 0, List.of());
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> c.report(Invariant.LOAD_BYTES, "slot 3 holds another key's bytes"));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
        assertTrue(v.getMessage().contains("invariant 12"), v.getMessage());
    }
}
