package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;

/** What the checkers' tests share: a small core to check against, and feeding a checker an event sequence. */
final class CheckerFeed {
    static final long S = 4096;
    /** A ring of 64 slots of 4 KiB, L1 of 4 slots, staging batches of 2 slots and a staging pool of 4. */
    static final CoreConfig CONFIG = CoreConfig.builder(S).l2Bytes(64 * S).l1Bytes(4 * S)
        .stagingBatchBytes(2 * S).stagingPoolBytes(4 * S).build();

    private CheckerFeed() {}

    /** Feeds {@code events} to {@code c}, then ends the run; a violation, at an event or at the end, is thrown. */
    static void passes(final Checker c, final CoreConfig config, final CoreEvent... events) {
        final CheckContext ctx = new CheckContext(config);
        for (final CoreEvent e : events) {
            ctx.sequence++;
            c.onEvent(ctx, e);
        }
        c.atEnd(ctx);
    }

    /** Feeds {@code before} to {@code c} (which must pass), then returns the violation that {@code wrong} raises. */
    static InvariantViolation violationAt(final Checker c, final CoreConfig config, final CoreEvent wrong,
                                          final CoreEvent... before) {
        final CheckContext ctx = new CheckContext(config);
        for (final CoreEvent e : before) {
            ctx.sequence++;
            c.onEvent(ctx, e);
        }
        return assertThrows(InvariantViolation.class, () -> c.onEvent(ctx, wrong));
    }
}
