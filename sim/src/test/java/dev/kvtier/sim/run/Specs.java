package dev.kvtier.sim.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.sim.device.DeviceProfile;
import dev.kvtier.sim.host.HostCostProfile;
import dev.kvtier.sim.workload.PhaseSpec;
import dev.kvtier.sim.workload.WorkloadSpec;
import java.util.List;

/** Small specs for tests: the reference benchmark's shape, scaled down. */
public final class Specs {
    public static final long SLOT = 64 * 1024;

    private Specs() {
    }

    /** {@code prompts} prompts of 16 blocks, L1 = 90 % and L2 = 105 % of the workload, cold then warm. */
    public static SimSpec small(final int prompts, final int concurrency) {
        final long workload = (long) prompts * 16 * SLOT;
        final CoreConfig core = CoreConfig.builder(SLOT)
            .l2Bytes(workload * 105 / 100 / SLOT * SLOT)
            .l1Bytes(workload * 90 / 100 / 4096 * 4096)
            .stagingBatchBytes(8 * SLOT)
            .stagingPoolBytes(16 * SLOT)
            .groupedWriteBatchBytes(4 * SLOT)
            .maxReadBytes(4 * SLOT)
            .build();
        final WorkloadSpec w = new WorkloadSpec(prompts, 256, 16, concurrency, 40_000, 1_000_000, 0, 1, 1,
            List.of(new PhaseSpec("cold", prompts, PhaseSpec.Order.SEQUENTIAL, 0),
                new PhaseSpec("warm", prompts, PhaseSpec.Order.SEQUENTIAL, 0)));
        return new SimSpec("small", core, DeviceProfile.CI_EXT4, HostCostProfile.JAVA_CORE, w, 10_000_000,
            60_000_000_000L);
    }
}
