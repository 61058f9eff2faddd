package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.L2Admission;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The directory checker's model of second-sight admission catches a core that admits or skips wrongly. */
class SecondSightCheckerTest {
    private static final CoreConfig SECOND = CONFIG.toBuilder().l2Admission(L2Admission.SECOND_SIGHT).build();

    private static PrefixKey k(final int i) {
        return new PrefixKey(i, i);
    }

    private static CoreEvent.AllocateRequested asked(final int key) {
        return new CoreEvent.AllocateRequested(key, 1, List.of(k(key)), 1);
    }

    private static CoreEvent.AllocationSkipped notAdmitted(final int key) {
        return new CoreEvent.AllocationSkipped(key, k(key), SkipReason.NOT_ADMITTED);
    }

    @Test
    void shouldPassASkipAtFirstSightAndAnAllocationAtTheSecond() {
        CheckerFeed.passes(new DirectoryChecker(), SECOND, asked(1), notAdmitted(1), asked(1),
            new CoreEvent.Allocated(1, k(1), 1, 0, 1));
    }

    @Test
    void shouldFailAnAllocationAtFirstSight() {
        assertEquals(Invariant.STALE_NOTHING, CheckerFeed.violationAt(new DirectoryChecker(), SECOND,
            new CoreEvent.Allocated(1, k(1), 1, 0, 1), asked(1)).invariant());
    }

    @Test
    void shouldFailASkipAtSecondSightOrWithoutTheKnob() {
        assertEquals(Invariant.STALE_NOTHING, CheckerFeed.violationAt(new DirectoryChecker(), SECOND,
            notAdmitted(1), asked(1), notAdmitted(1), asked(1)).invariant());
        assertEquals(Invariant.STALE_NOTHING, CheckerFeed.violationAt(new DirectoryChecker(), CONFIG,
            notAdmitted(1), asked(1)).invariant());
    }

    /** The model forgets the oldest of more keys seen once than the ring has slots (64 here). */
    @Test
    void shouldForgetTheOldestKeySeenOnceAsTheCoreDoes() {
        final DirectoryChecker c = new DirectoryChecker();
        final List<CoreEvent> feed = new java.util.ArrayList<>();
        for (int i = 1; i <= 65; i++) {
            feed.add(asked(i));
            feed.add(notAdmitted(i));
        }
        feed.add(asked(1));
        feed.add(notAdmitted(1));
        feed.add(asked(65));
        feed.add(new CoreEvent.Allocated(65, k(65), 1, 0, 1));
        CheckerFeed.passes(c, SECOND, feed.toArray(new CoreEvent[0]));
    }
}
