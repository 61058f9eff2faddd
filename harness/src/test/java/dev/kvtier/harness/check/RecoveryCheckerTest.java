package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import org.junit.jupiter.api.Test;

/**
 * The open replays exactly the records the device allows (the runner's scan after a crash): what a recovery that
 * takes a record of a later sequence number past a hole would get wrong.
 */
class RecoveryCheckerTest {
    @Test
    void shouldHoldWhenTheOpenReplaysTheIntactPrefix() {
        final RecoveryChecker c = new RecoveryChecker();
        c.expect(1, true);
        CheckerFeed.passes(c, CONFIG, new CoreEvent.IndexOpened(3, true, 1, 1, 8192));
    }

    @Test
    void shouldFailAnOpenThatReplaysPastTheHole() {
        final RecoveryChecker c = new RecoveryChecker();
        c.expect(1, true);
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> CheckerFeed.passes(c, CONFIG, new CoreEvent.IndexOpened(3, true, 2, 2, 8192)));
        assertEquals(Invariant.CRASH, v.invariant());
        assertTrue(v.getMessage().contains("later sequence number"), v.getMessage());
    }

    @Test
    void shouldFailARecoveryFromNoIntactCheckpoint() {
        final RecoveryChecker c = new RecoveryChecker();
        c.expect(-1, false);
        assertThrows(InvariantViolation.class,
            () -> CheckerFeed.passes(c, CONFIG, new CoreEvent.IndexOpened(3, true, 0, 0, 8192)));
        final RecoveryChecker formats = new RecoveryChecker();
        formats.expect(-1, false);
        CheckerFeed.passes(formats, CONFIG, new CoreEvent.IndexOpened(3, false, 0, 0, 8192));
    }

    @Test
    void shouldJudgeOnlyTheOpenAfterACrash() {
        CheckerFeed.passes(new RecoveryChecker(), CONFIG, new CoreEvent.IndexOpened(1, false, 0, 0, 0));
    }
}
