package dev.kvtier.lab.signoff;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.DiskMeter;
import dev.kvtier.scenarios.Scenario;
import java.util.List;

/**
 * A committed sign-off result: the real runs, the simulated runs on the profiles calibrated for this disk and host,
 * fio's sequential bandwidth on the same file, the simulator's fidelity figure by figure (medians and spread over the
 * repetitions, each judged against its band), what the calibration checked, the comparison with the previous result,
 * and the verdict.
 *
 * @param scenario         scenario name
 * @param host             machine name
 * @param date             ISO date
 * @param seed             seed of both runs
 * @param device           the file or device measured
 * @param real             the first real-I/O run
 * @param sim              the first virtual-time run with the calibrated profiles (same seed as {@code real})
 * @param deviceProfile    the device profile the simulation used
 * @param hostProfile      the host cost profile the simulation used
 * @param fio              fio's sequential bandwidth on the same file, or null when fio is not installed
 * @param phases           fidelity per phase, of the first repetition
 * @param repeats          repetitions of the real and the simulated run (repetition i ran with seed + i in both)
 * @param figures          every figure over the repetitions, real and simulated, with its band
 * @param cpu              each real run's time on a CPU and waiting for one (the machine's other load)
 * @param hostWork         the real runs' byte work against the host profile's bandwidths ({@link HostWork#lines})
 * @param calibration      what the device calibration did and checked (empty with {@code --profile})
 * @param suspect          why the calibrated device profile is suspect (empty when it is not)
 * @param storeBytesPerSec real store bandwidth: bytes stored over the cold phase (median of the repetitions)
 * @param simStoreBytesPerSec simulated store bandwidth
 * @param disk             the L2 data disk's own figures in the first real repetition (busy time, depth, bytes)
 * @param diskWriteVsFio   like for like: the disk's write bandwidth while busy (median of the repetitions) over
 *                         fio's sequential write bandwidth on the same file, or null without fio
 * @param previous         the newest earlier result for this scenario and host, or null
 * @param thresholds       the scenario's sign-off thresholds
 * @param pass             the verdict
 * @param reasons          why it failed (empty when it passed)
 */
public record SignoffReport(String scenario, String host, String date, long seed, String device, RunReport real,
                            RunReport sim, DeviceProfile deviceProfile, HostCostProfile hostProfile, Fio fio,
                            List<PhaseFidelity> phases, int repeats, List<Fidelity.Figure> figures,
                            List<CpuShare> cpu, List<String> hostWork, List<String> calibration, List<String> suspect,
                            double storeBytesPerSec,
                            double simStoreBytesPerSec,
                            DiskMeter.Figures disk, Double diskWriteVsFio, Previous previous,
                            Scenario.Signoff thresholds, boolean pass,
                            List<String> reasons, Conditions conditions) {
    public SignoffReport {
        phases = List.copyOf(phases);
        figures = List.copyOf(figures);
        cpu = List.copyOf(cpu);
        hostWork = List.copyOf(hostWork);
        calibration = List.copyOf(calibration);
        suspect = List.copyOf(suspect);
        reasons = List.copyOf(reasons);
    }

    /** fio on the same file: sequential 1 MiB at depth 16, O_DIRECT, io_uring. */
    public record Fio(long seqWriteBytesPerSec, long seqReadBytesPerSec) {}

    /** One phase, simulated over real: 1.0 means the simulator predicted the real duration exactly. */
    public record PhaseFidelity(String name, long realNanos, long simNanos, double fidelity) {}

    /**
     * The result compared against.
     *
     * @param result           its folder's name (beside this result's folder)
     * @param storeBytesPerSec its real store bandwidth
     * @param change           this result's store bandwidth over its, minus 1
     */
    public record Previous(String result, double storeBytesPerSec, double change) {}
}
