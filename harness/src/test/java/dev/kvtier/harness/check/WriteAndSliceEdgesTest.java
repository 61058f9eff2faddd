package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.event.CoreEvent.SealReason;
import org.junit.jupiter.api.Test;

/**
 * The write-order and slice-ownership checkers fire at the wrong event itself, not only at the end of the run (where
 * a leaked slice or an unfinished batch would fire as well), and stay quiet on slices and batches that only touch.
 */
class WriteAndSliceEdgesTest {

    /** Feeds {@code before} (which must pass), then returns the invariant that {@code wrong} fires. */
    private static Invariant firesAt(final Checker c, final CoreEvent wrong, final CoreEvent... before) {
        return CheckerFeed.violationAt(c, CONFIG, wrong, before).invariant();
    }

    private static void passes(final Checker c, final CoreEvent... events) {
        CheckerFeed.passes(c, CONFIG, events);
    }

    private static CoreEvent sealed(final long batch, final long offset, final long length) {
        return new CoreEvent.BatchSealed(batch, 1, offset, length, 1, 0, SealReason.END_OF_STORE);
    }

    private static CoreEvent finished(final long batch, final long offset, final long length) {
        return new CoreEvent.WriteFinished(batch, offset, length, true);
    }

    private static CoreEvent reserved(final long poolOffset, final long length) {
        return new CoreEvent.SliceReserved(1, poolOffset, length, poolOffset);
    }

    @Test
    void writeOrderFiresWhenALaterOverlappingBatchFinishesFirst() {
        assertEquals(Invariant.WRITE_ORDER, firesAt(new WriteOrderChecker(), finished(2, S, S),
            sealed(1, 0, 2 * S), sealed(2, S, S)));
        assertEquals(Invariant.WRITE_ORDER, firesAt(new WriteOrderChecker(), sealed(1, 0, 0)), "an empty batch");
    }

    @Test
    void writeOrderLetsBatchesThatOnlyTouchFinishInAnyOrder() {
        passes(new WriteOrderChecker(), sealed(1, 0, S), sealed(2, S, S), sealed(3, 2 * S, 2 * S),
            finished(2, S, S), finished(1, 0, S), sealed(4, 2 * S, S), finished(3, 2 * S, 2 * S),
            finished(4, 2 * S, S));
    }

    @Test
    void sliceOwnershipFiresAtAReservationOverALiveSlice() {
        assertEquals(Invariant.SLICE_OWNERSHIP, firesAt(new SliceOwnershipChecker(), reserved(S, S),
            reserved(0, 2 * S)), "a live slice reaches into it from below");
        assertEquals(Invariant.SLICE_OWNERSHIP, firesAt(new SliceOwnershipChecker(), reserved(0, 2 * S),
            reserved(S, S)), "a live slice starts inside it");
    }

    /** Slices that touch; entries written by batches that only touch; a headroom entry owes no write. */
    @Test
    void sliceOwnershipFollowsTouchingSlicesAndTheirWrites() {
        passes(new SliceOwnershipChecker(), reserved(0, S), reserved(S, S), reserved(3 * S, S), reserved(2 * S, S),
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0),
            new CoreEvent.EntryInserted(1, S, S, S, 0, false, 1),
            new CoreEvent.EntryInserted(2, 2 * S, S, 2 * S, 0, true, 0),
            sealed(1, 0, S), sealed(2, S, S), finished(1, 0, S), finished(2, S, S),
            new CoreEvent.EntryEvicted(0, S, 0, false, false, L1EvictReason.TRIM),
            new CoreEvent.EntryEvicted(S, S, S, false, false, L1EvictReason.TRIM),
            new CoreEvent.EntryEvicted(2 * S, S, 2 * S, true, false, L1EvictReason.RESERVE),
            new CoreEvent.SliceFreed(0, S), new CoreEvent.SliceFreed(S, S), new CoreEvent.SliceFreed(2 * S, S),
            new CoreEvent.SliceFreed(3 * S, S));
    }

    /** At the end a slice still resident is owned, and one evicted but never freed is a leak. */
    @Test
    void sliceOwnershipAtTheEndKeepsResidentSlicesAndFiresOnALeak() {
        final CoreEvent entry = new CoreEvent.EntryInserted(2, 0, S, 0, 0, true, 0);
        passes(new SliceOwnershipChecker(), reserved(0, S), entry);
        final SliceOwnershipChecker c = new SliceOwnershipChecker();
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final CoreEvent e : new CoreEvent[] {reserved(0, S), entry,
            new CoreEvent.EntryEvicted(0, S, 0, true, false, L1EvictReason.RESERVE)}) {
            c.onEvent(ctx, e);
        }
        assertEquals(Invariant.SLICE_OWNERSHIP, assertThrows(InvariantViolation.class, () -> c.atEnd(ctx))
            .invariant());
    }

    /** A reservation over a live slice says whether a pending write owns that slice. */
    @Test
    void sliceOwnershipSaysWhenTheReusedSliceIsOwnedByAPendingWrite() {
        assertEquals(" reuses live slice at 0 owned by a pending write", reuseMessage(false));
        assertEquals(" reuses live slice at 0", reuseMessage(true));
    }

    /** The end of the message for a reservation over a slice holding an entry (a headroom one owes no write). */
    private static String reuseMessage(final boolean headroom) {
        final SliceOwnershipChecker c = new SliceOwnershipChecker();
        final CheckContext ctx = new CheckContext(CONFIG);
        c.onEvent(ctx, reserved(0, S));
        c.onEvent(ctx, new CoreEvent.EntryInserted(1, 0, S, 0, 0, headroom, 0));
        final String m = assertThrows(InvariantViolation.class, () -> c.onEvent(ctx, reserved(0, S))).getMessage();
        return m.substring(m.indexOf(" reuses"));
    }
}
