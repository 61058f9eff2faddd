package dev.kvtier.sim.run;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.EngineSpec;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.harness.workload.WorkloadSpec;
import dev.kvtier.sim.device.FaultPlan;
import java.util.List;

/** Small specs for tests: the reference benchmark's shape, scaled down, on the CI disk's model. */
public final class Specs {
    public static final long SLOT = 64 * 1024;
    /** The CI disk, the Java core's host costs, ten million loop events, no faults. */
    public static final SimModel MODEL = new SimModel(DeviceProfile.CI_EXT4, HostCostProfile.JAVA_CORE, 10_000_000);

    private Specs() {}

    /** {@code prompts} prompts of 16 blocks, L1 = 90 % and L2 = 105 % of the workload, cold then warm. */
    public static RunSpec small(final int prompts, final int concurrency) {
        final long workload = (long) prompts * 16 * SLOT;
        final CoreConfig core = CoreConfig.builder(SLOT)
            .l2Bytes(workload * 105 / 100 / SLOT * SLOT)
            .l1Bytes(workload * 90 / 100 / 4096 * 4096)
            .stagingBatchBytes(8 * SLOT)
            .stagingPoolBytes(16 * SLOT)
            .groupedWriteBatchBytes(4 * SLOT)
            .maxReadBytes(4 * SLOT)
            .build();
        final WorkloadSpec w = new WorkloadSpec(prompts, 256, 16, concurrency, 0, 1, 1,
            List.of(new PhaseSpec("cold", prompts, PhaseSpec.Order.SEQUENTIAL, 0),
                new PhaseSpec("warm", prompts, PhaseSpec.Order.SEQUENTIAL, 0)),
            new EngineSpec(8192, 40_000, 1_000_000, 0, 8, 100_000));
        return new RunSpec("small", core, w, 60_000_000_000L);
    }

    /** {@link #MODEL} with {@code faults}. */
    public static SimModel model(final FaultPlan faults) {
        return MODEL.withFaults(faults);
    }

    /** {@code s} renamed, in commit mode {@code mode}. */
    public static RunSpec inMode(final String name, final RunSpec s, final CommitMode mode) {
        return new RunSpec(name, s.core().toBuilder().commitMode(mode).build(), s.workload(), s.livenessBoundNs());
    }
}
