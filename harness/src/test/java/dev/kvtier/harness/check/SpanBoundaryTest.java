package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The span checker's own arithmetic at the boundary (SpansCoalesced): a span's source offset counts for alignment
 * like its file offset, a span below its allocation is outside it, a span ending exactly at the staging pool's end is
 * still the client's, and a span of exactly L1 fits while a longer one must be rejected as LARGER_THAN_L1; a span the
 * boundary may drop as COMMITTED (the directory knows) is one it could drop as stale.
 */
class SpanBoundaryTest {
    /** L1 of 4 slots, a staging pool of 8: a span may be longer than L1 and still come from staging. */
    private static final CoreConfig WIDE = CoreConfig.builder(S).l2Bytes(64 * S).l1Bytes(4 * S)
        .stagingBatchBytes(2 * S).stagingPoolBytes(8 * S).build();

    private static SpanPiece span(final int startSlot, final int slots, final long src, final long file,
                                  final long len) {
        return new SpanPiece(new AllocationRef(new PrefixKey(1, 1), 7, startSlot, slots), src, file, len);
    }

    private static CoreEvent rejected(final SpanPiece p, final RejectReason reason) {
        return new CoreEvent.SpanRejected(9, p.alloc().key(), p.alloc().allocationId(), p.fileOffset(),
            p.lengthBytes(), reason);
    }

    /** Store 9 sends {@code p}, the boundary rejects it for {@code reason} (null: admits it), then is done. */
    private static void boundary(final CoreConfig config, final SpanPiece p, final RejectReason reason) {
        final SpanChecker c = new SpanChecker();
        final CheckContext ctx = new CheckContext(config);
        c.onEvent(ctx, new CoreEvent.StoreSent(9, List.of(p)));
        if (reason != null) {
            c.onEvent(ctx, rejected(p, reason));
        }
        c.onEvent(ctx, new CoreEvent.SpansCoalesced(9, 1, reason == null ? 1 : 0));
    }

    private static InvariantViolation fires(final CoreConfig config, final SpanPiece p, final RejectReason reason) {
        return assertThrows(InvariantViolation.class, () -> boundary(config, p, reason));
    }

    @Test
    void anAlignedSpanAtAnySourceOffsetIsAdmittedAndAMisalignedSourceIsNot() {
        boundary(CONFIG, span(2, 2, 2 * S, 2 * S, 2 * S), null);
        boundary(CONFIG, span(2, 2, 100, 2 * S, S), RejectReason.MISALIGNED);
        assertEquals(Invariant.STALE_NOTHING, fires(CONFIG, span(2, 2, 100, 2 * S, S), null).invariant());
    }

    @Test
    void aSpanStartingBelowItsAllocationIsOutsideIt() {
        boundary(CONFIG, span(3, 2, 0, 2 * S, S), RejectReason.OUTSIDE_ALLOCATION);
        assertEquals(Invariant.STALE_NOTHING, fires(CONFIG, span(3, 2, 0, 2 * S, S), null).invariant());
    }

    @Test
    void aSpanEndingExactlyAtTheStagingPoolsEndIsStillChecked() {
        boundary(CONFIG, span(3, 1, 3 * S, 3 * S, S), null);
        assertEquals(Invariant.STALE_NOTHING, fires(CONFIG, span(3, 1, 3 * S, 5 * S, S), null).invariant());
        boundary(CONFIG, span(3, 1, 4 * S, 5 * S, S), null); // from past the staging pool: not the client's
    }

    @Test
    void aSpanOfExactlyL1FitsAndALongerOneMustBeRejectedAsLargerThanL1() {
        boundary(WIDE, span(0, 8, 0, 0, 4 * S), null);
        boundary(WIDE, span(0, 8, 0, 0, 5 * S), RejectReason.LARGER_THAN_L1);
        final InvariantViolation v = fires(WIDE, span(0, 8, 0, 0, 5 * S), null);
        assertEquals(Invariant.STALE_NOTHING, v.invariant());
        assertTrue(v.getMessage().contains("is larger than L1 but the boundary said null"), v.getMessage());
        assertEquals(Invariant.STALE_NOTHING, fires(WIDE, span(0, 8, 0, 0, 4 * S), RejectReason.LARGER_THAN_L1)
            .invariant());
    }

    @Test
    void aSpanFitToStoreMayBeRejectedAsIntoACommittedAllocationButNotABadOne() {
        boundary(CONFIG, span(2, 2, 0, 2 * S, 2 * S), RejectReason.COMMITTED); // the directory checker's to say
        boundary(WIDE, span(0, 8, 0, 0, 5 * S), RejectReason.COMMITTED);
        assertEquals(Invariant.STALE_NOTHING, fires(CONFIG, span(2, 2, 100, 2 * S, S), RejectReason.COMMITTED)
            .invariant());
    }
}
