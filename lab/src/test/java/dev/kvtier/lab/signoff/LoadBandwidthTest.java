package dev.kvtier.lab.signoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.fidelity.Matrix;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Load bandwidth is judged on every held-out scenario: loaded bytes over the phases after the first, so a Zipf
 * workload, whose second phase is not called "warm", has one too.
 */
class LoadBandwidthTest {

    @Test
    void shouldMeasureLoadBandwidthOverThePhasesAfterTheFirst() throws Exception {
        final Matrix.HeldOut zipf = Matrix.DEFAULT.stream().filter(h -> h.label().equals("zipf")).findFirst()
            .orElseThrow();
        final Scenario sc = ScenarioLoader.load(zipf.scenario(), zipf.sets());
        final RunReport r = new SimRun(sc.spec(), sc.sim(), 1, List.of()).run();
        assertTrue(r.ok(), r.violation());
        assertEquals(0, r.metrics().warmPhaseNanos(), "no phase is called warm");
        assertTrue(r.metrics().loadedBytes() > 0, "the second phase loads shared prefixes");
        final long after = r.phases().get(1).durationNanos();
        assertEquals(r.metrics().loadedBytes() / (double) after, Fidelity.loadGbps(r), 1e-9);
    }
}
