package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A commit must not run ahead of its batches (docs/design/STORAGE-CORE.md 4.5): what a client whose staging pool holds
 * one batch would do if it committed once its last batch was sent rather than once every batch's store returned.
 */
class CommitAheadTest {
    private static final PrefixKey KEY = new PrefixKey(1, 1);
    private static final AllocationRef REF = new AllocationRef(KEY, 1, 0, 2);

    private static CoreEvent[] save(final boolean commitAhead) {
        final List<StoreSpec> specs = List.of(StoreSpec.of(REF, List.of(0, 1), S));
        final CoreEvent.StoreSent second = new CoreEvent.StoreSent(11, List.of(new SpanPiece(REF, 0, S, S)));
        final CoreEvent.Committed committed = new CoreEvent.Committed(KEY, 1);
        final CoreEvent.StoreCompleted done = new CoreEvent.StoreCompleted(11, 1, 0, S);
        return new CoreEvent[] {
            new CoreEvent.SaveQueued(5, specs, 2, 2 * S),
            new CoreEvent.BatchSent(5, 0, 10),
            new CoreEvent.StoreSent(10, List.of(new SpanPiece(REF, 0, 0, S))),
            new CoreEvent.EntryInserted(10, 0, S, 0, 0, false, 0),
            new CoreEvent.StoreCompleted(10, 1, 0, S),
            new CoreEvent.BatchSent(5, 1, 11),
            second,
            new CoreEvent.EntryInserted(11, S, S, S, 0, false, 1),
            commitAhead ? committed : done,
            commitAhead ? done : committed,
        };
    }

    @Test
    void shouldHoldWhenTheCommitFollowsEveryStore() {
        CheckerFeed.passes(new SpanChecker(), CONFIG, save(false));
    }

    @Test
    void shouldFireWhenAKeyIsCommittedWhileAStoreIntoItIsInFlight() {
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> CheckerFeed.passes(new SpanChecker(), CONFIG, save(true)));
        assertEquals(Invariant.STAGING, v.invariant());
        assertTrue(v.getMessage().contains("ran ahead of its batches"), v.getMessage());
    }
}
