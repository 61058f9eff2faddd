package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.client.StoreSpec;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.span.SpanPiece;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The span checker over a whole store: spans joined into one entry, a rejected span skipped, and a store that
 * completes with a span it neither admitted nor rejected (which fires at the completion).
 */
class SpanEdgesTest {
    private static final long S = 4096;
    private static final CoreConfig CONFIG = CoreConfig.builder(S).l2Bytes(64 * S).l1Bytes(4 * S)
        .stagingBatchBytes(2 * S).stagingPoolBytes(4 * S).build();
    private static final CoreEvent SENT = new CoreEvent.StoreSent(9, List.of(piece(1), piece(2)));

    private static SpanPiece piece(final int i) {
        return new SpanPiece(new AllocationRef(new PrefixKey(i, i), i, i, 1), (i - 1) * S, i * S, S);
    }

    private static void passes(final CoreEvent... events) {
        final SpanChecker c = new SpanChecker();
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final CoreEvent e : events) {
            c.onEvent(ctx, e);
        }
        c.atEnd(ctx);
    }

    /** Feeds {@code before} (which must pass), then returns the invariant that {@code wrong} fires. */
    private static Invariant firesAt(final CoreEvent wrong, final CoreEvent... before) {
        final SpanChecker c = new SpanChecker();
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final CoreEvent e : before) {
            c.onEvent(ctx, e);
        }
        return assertThrows(InvariantViolation.class, () -> c.onEvent(ctx, wrong)).invariant();
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
        assertEquals(Invariant.STAGING, firesAt(new CoreEvent.RequestCommitted(5, 1, 0), queued,
            new CoreEvent.BatchSent(5, 0, 9), new CoreEvent.StoreSent(9, List.of(piece(1)))));
    }
}
