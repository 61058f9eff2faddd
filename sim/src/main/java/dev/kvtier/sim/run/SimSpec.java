package dev.kvtier.sim.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.device.FaultPlan;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.util.Objects;

/**
 * Everything one simulated run needs besides its seed.
 *
 * @param scenario        scenario name, for reports
 * @param core            the core's knobs
 * @param device          the simulated device's service model
 * @param host            the host cost model
 * @param workload        the workload
 * @param maxEvents       loop event budget (a run that needs more is a liveness failure)
 * @param livenessBoundNs a request must finish within this much virtual time (invariant 16)
 * @param faults          device faults to inject ({@link FaultPlan#NONE} for none)
 */
public record SimSpec(String scenario, CoreConfig core, DeviceProfile device, HostCostProfile host,
                      WorkloadSpec workload, long maxEvents, long livenessBoundNs, FaultPlan faults) {

    /** A spec without faults. */
    public SimSpec(final String scenario, final CoreConfig core, final DeviceProfile device,
                   final HostCostProfile host, final WorkloadSpec workload, final long maxEvents,
                   final long livenessBoundNs) {
        this(scenario, core, device, host, workload, maxEvents, livenessBoundNs, FaultPlan.NONE);
    }

    public SimSpec {
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(workload, "workload");
        if (maxEvents <= 0 || livenessBoundNs <= 0) {
            throw new IllegalArgumentException("maxEvents and livenessBoundNs must be positive");
        }
        if (workload.blockTokens() <= 0) {
            throw new IllegalArgumentException("blockTokens must be positive");
        }
    }
}
