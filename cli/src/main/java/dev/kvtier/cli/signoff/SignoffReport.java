package dev.kvtier.cli.signoff;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import java.util.List;

/**
 * A committed sign-off result: the real run, the simulated run on the profiles calibrated for this disk and host,
 * fio's sequential bandwidth on the same file, the simulator's fidelity per phase, the comparison with the previous
 * result, and the verdict.
 *
 * @param scenario         scenario name
 * @param host             machine name
 * @param date             ISO date
 * @param seed             seed of both runs
 * @param device           the file or device measured
 * @param real             the real-I/O run
 * @param sim              the virtual-time run with the calibrated profiles
 * @param deviceProfile    the device profile the simulation used
 * @param hostProfile      the host cost profile the simulation used
 * @param fio              fio's sequential bandwidth on the same file, or null when fio is not installed
 * @param phases           fidelity per phase
 * @param storeBytesPerSec real store bandwidth: bytes stored over the cold phase
 * @param simStoreBytesPerSec simulated store bandwidth
 * @param storeVsFio       real store bandwidth over fio's sequential write bandwidth, or null
 * @param previous         the newest earlier result for this scenario and host, or null
 * @param thresholds       the scenario's sign-off thresholds
 * @param pass             the verdict
 * @param reasons          why it failed (empty when it passed)
 */
public record SignoffReport(String scenario, String host, String date, long seed, String device, RunReport real,
                            RunReport sim, DeviceProfile deviceProfile, HostCostProfile hostProfile, Fio fio,
                            List<PhaseFidelity> phases, double storeBytesPerSec, double simStoreBytesPerSec,
                            Double storeVsFio, Previous previous, Scenario.Signoff thresholds, boolean pass,
                            List<String> reasons) {
    public SignoffReport {
        phases = List.copyOf(phases);
        reasons = List.copyOf(reasons);
    }

    /** fio on the same file: sequential 1 MiB at depth 16, O_DIRECT, io_uring. */
    public record Fio(long seqWriteBytesPerSec, long seqReadBytesPerSec) {}

    /** One phase, simulated over real: 1.0 means the simulator predicted the real duration exactly. */
    public record PhaseFidelity(String name, long realNanos, long simNanos, double fidelity) {}

    /** The result compared against. */
    public record Previous(String file, double storeBytesPerSec, double change) {}
}
