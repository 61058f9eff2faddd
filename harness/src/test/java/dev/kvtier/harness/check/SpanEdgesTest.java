package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The span checker over a whole store: spans joined into one entry, a rejected span skipped, and a store that
 * completes with a span it neither admitted nor rejected (which fires at the completion).
 */
class SpanEdgesTest {
    private static final CoreEvent SENT = new CoreEvent.StoreSent(9, List.of(piece(1), piece(2)));

    private static SpanPiece piece(final int i) {
        return new SpanPiece(new AllocationRef(new PrefixKey(i, i), i, i, 1), (i - 1) * S, i * S, S);
    }

    private static void passes(final CoreEvent... events) {
        CheckerFeed.passes(new SpanChecker(), CONFIG, events);
    }

    /** Feeds {@code before} (which must pass), then returns the invariant that {@code wrong} fires. */
    private static Invariant firesAt(final CoreEvent wrong, final CoreEvent... before) {
        return violationAt(wrong, before).invariant();
    }

    /** Feeds {@code before} (which must pass), then returns the violation that {@code wrong} raises. */
    private static InvariantViolation violationAt(final CoreEvent wrong, final CoreEvent... before) {
        return CheckerFeed.violationAt(new SpanChecker(), CONFIG, wrong, before);
    }

    private static void assertSays(final InvariantViolation v, final String text) {
        assertTrue(v.getMessage().contains(text), v.getMessage());
    }

    @Test
    void aStoreThatJoinsOrRejectsEverySpanItSentCompletes() {
        passes(SENT, new CoreEvent.EntryInserted(9, S, 2 * S, 0, 0, false, 0), new CoreEvent.StoreCompleted(9, 2, 0,
            2 * S));
        passes(SENT, new CoreEvent.SpanRejected(9, new PrefixKey(2, 2), 2, 2 * S, S, RejectReason.STALE),
            new CoreEvent.EntryInserted(9, S, S, 0, 0, false, 0), new CoreEvent.StoreCompleted(9, 1, 1, S));
    }

    @Test
    void aStoreFiresWhenItCompletesWithASpanNeitherAdmittedNorRejected() {
        assertEquals(Invariant.SPAN_ORDER_OFF, firesAt(new CoreEvent.StoreCompleted(9, 1, 0, S), SENT,
            new CoreEvent.EntryInserted(9, S, S, 0, 0, false, 0)));
        assertEquals(Invariant.SPAN_COALESCE_ON, firesAt(new CoreEvent.EntryInserted(9, S, 3 * S, 0, 0, false, 0),
            SENT), "an entry longer than the spans sent");
    }

    /** A save whose slots were not all staged may not commit; one that staged them all may. */
    @Test
    void stagingFiresWhenARequestCommitsWithSlotsNeverStaged() {
        final CoreEvent queued = new CoreEvent.SaveQueued(5, List.of(StoreSpec.of(piece(1).alloc(), List.of(0), S),
            StoreSpec.of(piece(2).alloc(), List.of(0), S)), 1, 2 * S);
        passes(queued, new CoreEvent.BatchSent(5, 0, 9), SENT, new CoreEvent.RequestCommitted(5, 2, 0));
        final InvariantViolation v = violationAt(new CoreEvent.RequestCommitted(5, 1, 0), queued,
            new CoreEvent.BatchSent(5, 0, 9), new CoreEvent.StoreSent(9, List.of(piece(1))));
        assertEquals(Invariant.STAGING, v.invariant());
        assertSays(v, "request 5 committed with 1 slots never staged");
    }

    /** The entry after a rejected first span is the second span's; the rejected span's own place fires. */
    @Test
    void anEntryAfterARejectedFirstSpanIsTheNextSpansOwn() {
        final CoreEvent reject = new CoreEvent.SpanRejected(9, new PrefixKey(1, 1), 1, S, S, RejectReason.STALE);
        passes(SENT, reject, new CoreEvent.EntryInserted(9, 2 * S, S, 0, S, false, 0),
            new CoreEvent.StoreCompleted(9, 1, 1, S));
        assertEquals(Invariant.SPAN_COALESCE_ON, firesAt(new CoreEvent.EntryInserted(9, S, S, 0, 0, false, 0), SENT,
            reject));
    }

    /** An entry that joins spans not contiguous names the spans it joined. */
    @Test
    void anEntryJoiningSpansNotContiguousNamesThem() {
        final SpanPiece apart = new SpanPiece(piece(2).alloc(), 2 * S, 2 * S, S);
        final InvariantViolation v = violationAt(new CoreEvent.EntryInserted(9, S, 2 * S, 0, 0, false, 0),
            new CoreEvent.StoreSent(9, List.of(piece(1), apart)));
        assertEquals(Invariant.SPAN_COALESCE_ON, v.invariant());
        assertSays(v, "[" + piece(1) + "] then " + apart);
    }

    /** Two slots of allocation 1 queued for request 5, staged by store 9 as one span at {@code src}. */
    private static CoreEvent[] queuedAndSent(final long src, final int slots) {
        final AllocationRef alloc = new AllocationRef(new PrefixKey(1, 1), 1, 4, 3);
        return new CoreEvent[] {new CoreEvent.SaveQueued(5, List.of(StoreSpec.of(alloc, List.of(0, 1), S)), 1, 2 * S),
            new CoreEvent.BatchSent(5, 0, 9), new CoreEvent.StoreSent(9, List.of(new SpanPiece(alloc, src, 4 * S,
                slots * S)))};
    }

    /** A batch staged above offset 0 of the pool tiles from its first span and counts its own slots only. */
    @Test
    void aBatchStagedAboveZeroTilesFromItsFirstSpanAndCountsItsOwnSlots() {
        final CoreEvent[] twoAt2 = queuedAndSent(2 * S, 2);
        passes(twoAt2[0], twoAt2[1], twoAt2[2], new CoreEvent.RequestCommitted(5, 1, 0));
        final CoreEvent[] threeAt1 = queuedAndSent(S, 3);
        final InvariantViolation v = violationAt(threeAt1[2], threeAt1[0], threeAt1[1]);
        assertEquals(Invariant.STAGING, v.invariant());
        assertSays(v, "request 5 staged slot at file " + 6 * S + " of allocation 1; prefix order wants null");
    }

    /** A batch of more slots than stagingBatchBytes holds fires and says how many. */
    @Test
    void aBatchOfTooManySlotsAboveZeroFiresAndCountsThem() {
        final AllocationRef alloc = new AllocationRef(new PrefixKey(1, 1), 1, 4, 3);
        final InvariantViolation v = violationAt(new CoreEvent.StoreSent(9, List.of(new SpanPiece(alloc, S, 4 * S,
            3 * S))), new CoreEvent.SaveQueued(5, List.of(StoreSpec.of(alloc, List.of(0, 1, 2), S)), 1, 3 * S),
            new CoreEvent.BatchSent(5, 0, 9));
        assertEquals(Invariant.STAGING, v.invariant());
        assertSays(v, "batch of 3 slots exceeds 2");
    }
}
