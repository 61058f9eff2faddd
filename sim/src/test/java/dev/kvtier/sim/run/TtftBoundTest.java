package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TTFT bound (sim.ttftBoundMs): from arrival to first token, queueing included; invariant 16. */
class TtftBoundTest {

    private static RunReport run(final long ttftBoundNs) {
        final RunSpec s = Specs.small(20, 8);
        return new SimRun(new RunSpec(s.scenario(), s.core(), s.workload(), s.livenessBoundNs(), ttftBoundNs),
            Specs.MODEL, 3, List.of()).run();
    }

    @Test
    void shouldFailARequestWhoseFirstTokenCameAfterTheBound() {
        final RunReport free = run(0);
        assertNull(free.violation(), free.violation());
        final long maxNs = free.metrics().ttftNanos().get("cold").max();
        final long p50Ns = free.metrics().ttftNanos().get("cold").at("p50");
        final RunReport bounded = run(p50Ns);
        assertNotNull(bounded.violation(), "half the cold requests took longer than the bound");
        assertTrue(bounded.violation().startsWith("invariant 16") && bounded.violation().contains("first token")
            && bounded.violation().contains("queueing included"), bounded.violation());
        final RunReport loose = run(maxNs + maxNs / 10);
        assertNull(loose.violation(), loose.violation());
    }
}
