package dev.kvtier.harness.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.util.Objects;

/**
 * What one run is, in either mode, besides its seed: the scenario's name, the core's knobs, the workload, and how long
 * a request may take. The simulator's own settings (device and host models, faults, event budget) are not here: a
 * real run never takes them.
 *
 * @param scenario        scenario name, for reports
 * @param core            the core's knobs
 * @param workload        the workload
 * @param livenessBoundNs a request must finish within this much time on the run's clock (virtual time in a simulated
 *                        run, wall time in a real one): invariant 16
 */
public record RunSpec(String scenario, CoreConfig core, WorkloadSpec workload, long livenessBoundNs) {
    public RunSpec {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(workload, "workload");
        if (livenessBoundNs <= 0) {
            throw new IllegalArgumentException("livenessBoundNs must be positive, got " + livenessBoundNs);
        }
        if (workload.blockTokens() <= 0) {
            throw new IllegalArgumentException("blockTokens must be positive");
        }
    }
}
