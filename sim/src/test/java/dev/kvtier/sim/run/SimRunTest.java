package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.run.RunReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimRunTest {

    @Test
    void shouldRunColdThenWarmWithEveryInvariantHolding() {
        final RunReport r = new SimRun(Specs.small(20, 4), Specs.MODEL, 1, List.of()).run();
        assertNull(r.violation(), r.violation());
        assertEquals(2, r.phases().size());
        assertEquals(20L * 16 * Specs.SLOT, r.metrics().storedBytes());
        assertEquals(20L * 16 * Specs.SLOT, r.metrics().loadedBytes(), "every prompt loads in full when warm");
        assertTrue(r.metrics().l1HitRatio() > 0.5 && r.metrics().l1HitRatio() < 1.0, "L1 holds 90 % of it: "
            + r.metrics().l1HitRatio());
        assertTrue(r.metrics().l2Reads() > 0);
        assertEquals(0, r.metrics().wrongBytes());
        System.out.println(r);
    }

    @Test
    void shouldGiveOneDigestPerSeed() {
        final RunReport a = new SimRun(Specs.small(10, 4), Specs.MODEL, 7, List.of()).run();
        final RunReport b = new SimRun(Specs.small(10, 4), Specs.MODEL, 7, List.of()).run();
        assertEquals(a.eventDigest(), b.eventDigest());
        assertEquals(a, b);
    }
}
