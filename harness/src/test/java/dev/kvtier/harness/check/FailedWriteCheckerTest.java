package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A data write the device completed short or with an error counts as failed, and the chunks over it leave the ring
 * before the next input (docs/design/STORAGE-CORE.md 4.4): what a core that takes any non-negative count for a whole
 * write would get wrong (a key committed over bytes that never reached L2).
 */
class FailedWriteCheckerTest {
    private static final PrefixKey KEY = new PrefixKey(1, 1);

    /** Allocation 1 at slots [2, 4), its write of two slots completing with {@code result}, reported {@code ok}. */
    private static List<CoreEvent> write(final long result, final boolean ok, final boolean evicted) {
        final List<CoreEvent> events = new ArrayList<>(List.of(
            new CoreEvent.Allocated(7, KEY, 1, 2, 2),
            new CoreEvent.IoSubmitted(40, IoOp.WRITE, 2 * S, 2 * S, 1),
            new CoreEvent.IoCompleted(40, IoOp.WRITE, 2 * S, result),
            new CoreEvent.WriteFinished(3, 2 * S, 2 * S, ok)));
        if (evicted) {
            events.add(new CoreEvent.RingEvicted(KEY, 1, 2, 2, true, 0, RingEvictReason.WRITE_FAILED));
        }
        events.add(new CoreEvent.DrainRequested()); // the next input
        return events;
    }

    private static void feed(final List<CoreEvent> events) {
        CheckerFeed.passes(new FailedWriteChecker(), CONFIG, events.toArray(CoreEvent[]::new));
    }

    @Test
    void shouldHoldForAWholeWriteAndForAShortOneHandledAsFailed() {
        feed(write(2 * S, true, false));
        feed(write(S, false, true));
        feed(write(-5, false, true));
    }

    @Test
    void shouldFireWhenAShortWriteCountsAsWritten() {
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> feed(write(S, true, false)));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
        assertTrue(v.getMessage().contains("4096 of its 8192 B"), v.getMessage());
    }

    @Test
    void shouldFireWhenAWholeWriteCountsAsFailed() {
        assertThrows(InvariantViolation.class, () -> feed(write(2 * S, false, true)));
    }

    @Test
    void shouldFireWhenTheKeysOverAFailedWriteStayInTheRing() {
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> feed(write(S, false, false)));
        assertTrue(v.getMessage().contains("allocation 1"), v.getMessage());
    }
}
