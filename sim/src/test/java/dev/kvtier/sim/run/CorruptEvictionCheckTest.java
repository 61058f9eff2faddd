package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.DirectoryChecker;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantViolation;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.sim.device.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A checksum mismatch must take its chunk out of the ring (docs/design/STORAGE-CORE.md 10, CORRUPT), and the directory
 * checker says so (invariant 12): the events of a real simulated run under silent corruption pass it, and the same
 * events with the CORRUPT evictions taken out (what a core that skips the eviction after a mismatch would emit, up to
 * its next input) do not.
 */
class CorruptEvictionCheckTest {

    @Test
    void shouldFireWhenAChecksumMismatchIsNotFollowedByItsChunksEviction() {
        final RunSpec spec = Specs.inMode("corrupt", Specs.small(12, 4), CommitMode.L1);
        final List<CoreEvent> events = new ArrayList<>();
        final RunReport report = new SimRun(spec, Specs.model(new FaultPlan(0, 0, 0, 0, 1, Long.MAX_VALUE)
            .withCorruptionsPerMillion(500_000)), 5, List.of(events::add)).run();
        assertNull(report.violation(), report.violation());
        final long mismatches = events.stream().filter(CoreEvent.ChecksumMismatch.class::isInstance).count();
        assertTrue(mismatches > 0, "corruption was caught on read");

        feed(spec.core(), events); // the core as it is
        final List<CoreEvent> skipping = events.stream().filter(e -> !(e instanceof CoreEvent.RingEvicted r
            && r.reason() == RingEvictReason.CORRUPT)).toList();
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> feed(spec.core(), skipping));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
        assertTrue(v.getMessage().contains("failed its checksum") && v.getMessage().contains("did not leave the ring"),
            v.getMessage());
    }

    /** A fresh directory checker, fed every event and then the end of the run. */
    private static void feed(final CoreConfig config, final List<CoreEvent> events) {
        final DirectoryChecker checker = new DirectoryChecker();
        final CheckContext ctx = new CheckContext(config);
        for (final CoreEvent e : events) {
            checker.onEvent(ctx, e);
        }
        checker.atEnd(ctx);
    }
}
