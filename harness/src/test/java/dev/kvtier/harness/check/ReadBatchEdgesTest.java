package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read-batch checker counts reads in flight as they are issued and land (promoted or discarded), allows a read or
 * a load's reads up to exactly L1, and fires on an empty read, reads above L1 in flight, and a landing never issued.
 * L1 is 4 slots.
 */
class ReadBatchEdgesTest {
    private static final CoreEvent LOAD = new CoreEvent.LoadRequested(7, List.of(), 4 * S);

    private static CoreEvent read(final long offset, final long length) {
        return new CoreEvent.SliceReserved(7, offset, length, offset);
    }

    private static void passes(final CoreConfig config, final CoreEvent... events) {
        CheckerFeed.passes(new ReadBatchChecker(), config, events);
    }

    /** Feeds {@code before} (which must pass), then returns the invariant that {@code wrong} fires. */
    private static Invariant firesAt(final CoreEvent wrong, final CoreEvent... before) {
        return CheckerFeed.violationAt(new ReadBatchChecker(), CONFIG, wrong, before).invariant();
    }

    @Test
    void aLandedReadLeavesTheBatchWhetherPromotedOrDiscarded() {
        passes(CONFIG.toBuilder().readBatchMax(2).build(), LOAD, read(0, S), read(S, S),
            new CoreEvent.Promoted(7, 0, S), read(2 * S, S),
            new CoreEvent.PromotionDiscarded(7, S, S, CoreEvent.DiscardReason.SUPERSEDED), read(3 * S, S));
    }

    @Test
    void readsUpToExactlyL1PassAndTwoReadsOfOneOffsetLandApart() {
        passes(CONFIG, LOAD, read(0, S), read(S, S), read(2 * S, S), read(3 * S, S));
        passes(CONFIG, LOAD, read(0, 4 * S));
        passes(CONFIG, LOAD, read(0, S), read(0, S), new CoreEvent.Promoted(7, 0, S),
            new CoreEvent.PromotionDiscarded(7, 0, S, CoreEvent.DiscardReason.SUPERSEDED));
    }

    @Test
    void capacityFiresOnAnEmptyReadMoreThanL1InFlightOrALandingNeverIssued() {
        assertEquals(Invariant.CAPACITY, firesAt(read(0, 0), LOAD), "an empty read");
        assertEquals(Invariant.CAPACITY, firesAt(read(4 * S, S), LOAD, read(0, S), read(S, S), read(2 * S, S),
            read(3 * S, S)), "5 slots in flight, L1 holds 4");
        assertEquals(Invariant.CAPACITY, firesAt(new CoreEvent.Promoted(7, S, S), LOAD, read(0, S)), "never issued");
    }

    /**
     * A finished load's id is forgotten once its last read lands (or at once, with none in flight): load and store ids
     * are the callers' to choose (TieredStore takes both), so a later store may carry it, and its reservations are not
     * that load's reads.
     */
    @Test
    void aFinishedLoadsIdIsForgottenOnceItsReadsLanded() {
        final CoreEvent[] store = {read(0, 4 * S), read(4 * S, S)};
        passes(CONFIG, LOAD, read(0, S), new CoreEvent.LoadCompleted(7, S, 0), new CoreEvent.Promoted(7, 0, S),
            store[0], store[1]);
        passes(CONFIG, LOAD, new CoreEvent.LoadCompleted(7, 0, 0), store[0], store[1]);
        passes(CONFIG, LOAD, new CoreEvent.LoadFailed(7, CoreEvent.LoadFailure.READ_ERROR), store[0], store[1]);
    }
}
