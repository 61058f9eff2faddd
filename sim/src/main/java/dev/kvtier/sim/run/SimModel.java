package dev.kvtier.sim.run;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.sim.device.FaultPlan;
import java.util.Objects;

/**
 * What only the simulator needs to run a {@link RunSpec}: the models of the device and of the host's costs, the
 * faults to inject, and the event loop's budget. A real run takes none of it.
 *
 * @param device    the simulated device's service model
 * @param host      the host cost model
 * @param faults    device faults to inject ({@link FaultPlan#NONE} for none)
 * @param maxEvents loop event budget (a run that needs more is a liveness failure)
 * @param reorder   both simulated devices complete I/O out of submission order, seeded (off by default)
 */
public record SimModel(DeviceProfile device, HostCostProfile host, FaultPlan faults, long maxEvents,
                       boolean reorder) {

    /** A model whose devices complete I/O in the order their service model gives. */
    public SimModel(final DeviceProfile device, final HostCostProfile host, final FaultPlan faults,
                    final long maxEvents) {
        this(device, host, faults, maxEvents, false);
    }

    /** A model without faults. */
    public SimModel(final DeviceProfile device, final HostCostProfile host, final long maxEvents) {
        this(device, host, FaultPlan.NONE, maxEvents);
    }

    public SimModel {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(faults, "faults");
        if (maxEvents <= 0) {
            throw new IllegalArgumentException("maxEvents must be positive, got " + maxEvents);
        }
    }

    /** This model with {@code plan} as its faults. */
    public SimModel withFaults(final FaultPlan plan) {
        return new SimModel(device, host, plan, maxEvents, reorder);
    }
}
