package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariant 9 under both staging layouts: a batch's pieces, sent in prefix order, tile its staging back to back in
 * the order sent (packed) or in its reverse (reversed), and a batch laid out the other way fires.
 */
class StagingLayoutCheckTest {
    private static final CoreConfig REVERSED = CONFIG.toBuilder().stagingLayout(StagingLayout.REVERSED).build();

    private static AllocationRef alloc(final int i) {
        return new AllocationRef(new PrefixKey(i, i), i, i, 1);
    }

    /** Request 5 queues keys 1 and 2 (file S and 2S), and store 9 sends them in that order from {@code src1, src2}. */
    private static CoreEvent[] save(final long src1, final long src2) {
        return new CoreEvent[] {
            new CoreEvent.SaveQueued(5, List.of(StoreSpec.of(alloc(1), List.of(0), S),
                StoreSpec.of(alloc(2), List.of(1), S)), 1, 2 * S),
            new CoreEvent.BatchSent(5, 0, 9),
            new CoreEvent.StoreSent(9, List.of(new SpanPiece(alloc(1), src1, S, S), new SpanPiece(alloc(2), src2,
                2 * S, S)))};
    }

    @Test
    void aPackedBatchTilesInTheOrderSent() {
        final CoreEvent[] packed = save(0, S);
        CheckerFeed.passes(new SpanChecker(), CONFIG, packed);
        final CoreEvent[] reversed = save(S, 0);
        final InvariantViolation v = CheckerFeed.violationAt(new SpanChecker(), CONFIG, reversed[2], reversed[0],
            reversed[1]);
        assertEquals(Invariant.STAGING, v.invariant());
        assertTrue(v.getMessage().contains("do not tile the batch packed at 0, expected " + 2 * S), v.getMessage());
    }

    @Test
    void aReversedBatchTilesInTheReverseOfTheOrderSent() {
        final CoreEvent[] reversed = save(S, 0);
        CheckerFeed.passes(new SpanChecker(), REVERSED, reversed);
        final CoreEvent[] packed = save(0, S);
        final InvariantViolation v = CheckerFeed.violationAt(new SpanChecker(), REVERSED, packed[2], packed[0],
            packed[1]);
        assertEquals(Invariant.STAGING, v.invariant());
        assertTrue(v.getMessage().contains("do not tile the batch reversed at 0, expected " + 2 * S), v.getMessage());
    }

    /** Above offset 0 of the pool: a reversed batch at 4S..6S has its last piece sent at 4S. */
    @Test
    void aReversedBatchAboveZeroTilesFromItsLastPiece() {
        CheckerFeed.passes(new SpanChecker(), REVERSED, save(5 * S, 4 * S));
        final CoreEvent[] gap = save(6 * S, 4 * S);
        assertEquals(Invariant.STAGING, CheckerFeed.violationAt(new SpanChecker(), REVERSED, gap[2], gap[0], gap[1])
            .invariant());
    }
}
