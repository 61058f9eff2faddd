package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.sim.device.FaultPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Device faults from the seeded fault stream: the core handles each kind and every invariant still holds. */
class FaultInjectionTest {

    private static SimSpec with(final FaultPlan faults) {
        final SimSpec s = Specs.small(20, 4);
        return new SimSpec(s.scenario(), s.core(), s.device(), s.host(), s.workload(), s.maxEvents(),
            s.livenessBoundNs(), faults);
    }

    @Test
    void shouldSurviveWriteErrorsWithoutServingBytesThatNeverReachedL2() {
        final SimRun run = new SimRun(with(new FaultPlan(0, 200_000, 0, 0, 1, Long.MAX_VALUE)), 3, List.of());
        final RunReport r = run.run();
        assertNull(r.violation(), r.violation());
        assertTrue(r.metrics().injectedIoErrors() > 0, "some writes failed");
        assertEquals(r.metrics().injectedIoErrors(), r.metrics().writeErrors(), "the core saw every one");
        assertTrue(r.metrics().ringEvictions() > 0, "their keys left the index");
        assertEquals(0, r.metrics().wrongBytes());
    }

    @Test
    void shouldFailLoadsOnReadErrorsAndRecompute() {
        final RunReport r = new SimRun(with(new FaultPlan(300_000, 0, 0, 0, 1, Long.MAX_VALUE)), 3, List.of()).run();
        assertNull(r.violation(), r.violation());
        assertTrue(r.metrics().injectedIoErrors() > 0);
        assertTrue(r.metrics().loadFailures() > 0, "a failed read fails its load");
        assertEquals(0, r.metrics().wrongBytes());
    }

    @Test
    void shouldOnlyCostTimeForSpikesAndSlowness() {
        final RunReport clean = new SimRun(with(FaultPlan.NONE), 3, List.of()).run();
        final RunReport slow = new SimRun(with(new FaultPlan(0, 0, 500_000, 50_000_000, 4, Long.MAX_VALUE)), 3,
            List.of()).run();
        assertNull(slow.violation(), slow.violation());
        assertTrue(slow.virtualNanos() > clean.virtualNanos(), "slower, not wrong");
        assertEquals(clean.metrics().storedBytes(), slow.metrics().storedBytes());
        assertEquals(clean.metrics().loadedBytes(), slow.metrics().loadedBytes());
    }

    @Test
    void shouldStopInjectingAtUntilAndStayDeterministic() {
        final FaultPlan early = new FaultPlan(300_000, 300_000, 0, 0, 1, 1);
        final RunReport r = new SimRun(with(early), 3, List.of()).run();
        assertEquals(0, r.metrics().injectedIoErrors(), "no fault after 1 ns");
        final FaultPlan plan = new FaultPlan(100_000, 100_000, 100_000, 1_000_000, 2, Long.MAX_VALUE);
        final RunReport a = new SimRun(with(plan), 5, List.of()).run();
        final RunReport b = new SimRun(with(plan), 5, List.of()).run();
        assertEquals(a.eventDigest(), b.eventDigest(), "faults come from the seed");
        assertNotEquals(a.eventDigest(), new SimRun(with(plan), 6, List.of()).run().eventDigest());
    }
}
