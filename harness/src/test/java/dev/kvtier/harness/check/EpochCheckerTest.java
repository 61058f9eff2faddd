package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import org.junit.jupiter.api.Test;

/**
 * After a recovery the index log goes on with an epoch above every durable one: what a recovery that keeps the
 * checkpoint's epoch would break (a stale record of the previous incarnation could sit where the new lap expects its
 * next sequence number, and be replayed after a second crash).
 */
class EpochCheckerTest {
    private static final CoreEvent FIRST_OPEN = new CoreEvent.IndexOpened(1, false, 0, 0, 0);
    private static final CoreEvent FIRST_DURABLE = new CoreEvent.IndexCheckpointed(1, 1, 0, 4096);

    @Test
    void shouldHoldWhenEveryRecoveryTakesANewEpoch() {
        CheckerFeed.passes(new EpochChecker(() -> false), CONFIG, FIRST_OPEN, FIRST_DURABLE,
            new CoreEvent.IndexCheckpointed(1, 40, 3, 4096),
            new CoreEvent.IndexOpened(2, true, 3, 5, 8192), new CoreEvent.IndexCheckpointed(2, 46, 4, 4096),
            new CoreEvent.IndexOpened(3, true, 4, 0, 8192));
    }

    @Test
    void shouldAllowTheEpochOfALifeThatNeverMadeACheckpointDurable() {
        // Life 2 crashed before its first checkpoint was durable: it wrote no record, and its epoch may come again.
        CheckerFeed.passes(new EpochChecker(() -> false), CONFIG, FIRST_OPEN, FIRST_DURABLE,
            new CoreEvent.IndexOpened(2, true, 0, 0, 8192), new CoreEvent.IndexOpened(2, true, 0, 0, 8192));
    }

    @Test
    void shouldFireWhenARecoveryKeepsTheCheckpointsEpoch() {
        final InvariantViolation v = CheckerFeed.violationAt(new EpochChecker(() -> false), CONFIG,
            new CoreEvent.IndexOpened(1, true, 2, 4, 8192), FIRST_OPEN, FIRST_DURABLE);
        assertEquals(Invariant.CRASH, v.invariant());
    }

    @Test
    void shouldNotJudgeOnceTheIndexDeviceFlippedBytes() {
        CheckerFeed.passes(new EpochChecker(() -> true), CONFIG, FIRST_OPEN, FIRST_DURABLE,
            new CoreEvent.IndexOpened(1, true, 2, 4, 8192));
        assertThrows(InvariantViolation.class, () -> CheckerFeed.passes(new EpochChecker(() -> false), CONFIG,
            FIRST_OPEN, FIRST_DURABLE, new CoreEvent.IndexOpened(1, true, 2, 4, 8192)));
    }
}
