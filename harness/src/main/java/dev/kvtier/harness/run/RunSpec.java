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
 * @param livenessBoundNs a request must end (its last token) within this much time of its lookup, on the run's clock
 *                        (virtual time in a simulated run, wall time in a real one); queueing before the lookup is not
 *                        counted: invariant 16
 * @param ttftBoundNs     a request's first token must come within this much time of its arrival, queueing included
 *                        (0: no bound); also invariant 16
 */
public record RunSpec(String scenario, CoreConfig core, WorkloadSpec workload, long livenessBoundNs,
                      long ttftBoundNs) {
    /** A run with no TTFT bound. */
    public RunSpec(final String scenario, final CoreConfig core, final WorkloadSpec workload,
                   final long livenessBoundNs) {
        this(scenario, core, workload, livenessBoundNs, 0);
    }

    public RunSpec {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(workload, "workload");
        if (livenessBoundNs <= 0) {
            throw new IllegalArgumentException("livenessBoundNs must be positive, got " + livenessBoundNs);
        }
        if (ttftBoundNs < 0) {
            throw new IllegalArgumentException("ttftBoundNs must be 0 (none) or positive, got " + ttftBoundNs);
        }
        if (workload.blockTokens() <= 0) {
            throw new IllegalArgumentException("blockTokens must be positive");
        }
    }
}
