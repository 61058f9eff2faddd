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
    private static SimRun sim(final FaultPlan faults, final long seed) {
        return new SimRun(Specs.small(20, 4), Specs.model(faults), seed, List.of());
    }

    @Test
    void shouldSurviveWriteErrorsWithoutServingBytesThatNeverReachedL2() {
        final SimRun run = sim(new FaultPlan(0, 200_000, 0, 0, 1, Long.MAX_VALUE), 3);
        final RunReport r = run.run();
        assertNull(r.violation(), r.violation());
        assertTrue(r.metrics().injectedIoErrors() > 0, "some writes failed");
        assertEquals(r.metrics().injectedIoErrors(), r.metrics().writeErrors(), "the core saw every one");
        assertTrue(r.metrics().ringEvictions() > 0, "their keys left the directory");
        assertEquals(0, r.metrics().wrongBytes());
    }

    @Test
    void shouldFailLoadsOnReadErrorsAndRecompute() {
        final RunReport r = sim(new FaultPlan(300_000, 0, 0, 0, 1, Long.MAX_VALUE), 3).run();
        assertNull(r.violation(), r.violation());
        assertTrue(r.metrics().injectedIoErrors() > 0);
        assertTrue(r.metrics().loadFailures() > 0, "a failed read fails its load");
        assertEquals(0, r.metrics().wrongBytes());
    }

    @Test
    void shouldOnlyCostTimeForSpikesAndSlowness() {
        final RunReport clean = sim(FaultPlan.NONE, 3).run();
        final RunReport slow = sim(new FaultPlan(0, 0, 500_000, 50_000_000, 4, Long.MAX_VALUE), 3).run();
        assertNull(slow.violation(), slow.violation());
        assertTrue(slow.elapsedNanos() > clean.elapsedNanos(), "slower, not wrong");
        assertEquals(clean.metrics().storedBytes(), slow.metrics().storedBytes());
        assertEquals(clean.metrics().loadedBytes(), slow.metrics().loadedBytes());
    }

    @Test
    void shouldStopInjectingAtUntilAndStayDeterministic() {
        final FaultPlan early = new FaultPlan(300_000, 300_000, 0, 0, 1, 1);
        final RunReport r = sim(early, 3).run();
        assertEquals(0, r.metrics().injectedIoErrors(), "no fault after 1 ns");
        final FaultPlan plan = new FaultPlan(100_000, 100_000, 100_000, 1_000_000, 2, Long.MAX_VALUE);
        final RunReport a = sim(plan, 5).run();
        final RunReport b = sim(plan, 5).run();
        assertEquals(a.eventDigest(), b.eventDigest(), "faults come from the seed");
        assertNotEquals(a.eventDigest(), sim(plan, 6).run().eventDigest());
    }
}
