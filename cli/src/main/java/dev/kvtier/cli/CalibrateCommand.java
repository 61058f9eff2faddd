package dev.kvtier.cli;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.CalibrationRun;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kvtier calibrate}: measures a disk into a device profile and this machine's core into a host cost profile,
 * both in the TOML shape a scenario's {@code sim.device} and {@code sim.host} accept. The disk: a full write pass
 * first (every read reads bytes this run wrote), a matrix of reads and writes (4 KiB to 8 MiB, depths 1 to 64) and the
 * cells a run issues (the scenario's slot-sized and grouped writes and reads at its depth), with io_uring and
 * O_DIRECT; then, when fio is installed, the profile's bandwidth cells side by side with fio on the same file. A figure
 * above fio's by more than 15 %, or above a limit given here, is suspect: the profile is then not written (exit 4)
 * unless {@code --accept-suspect}.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Measure a disk and this machine's core into simulator profiles (device and host cost TOML).")
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH",
        description = "a scratch file (created) or a block device on the disk to measure; its contents are lost")
    Path device;

    @Option(names = "--out", paramLabel = "PROFILE", description = "device profile to write (default device.toml)")
    Path out = Path.of("device.toml");

    @Option(names = "--host-out", paramLabel = "PROFILE", description = "host cost profile (default host.toml)")
    Path hostOut = Path.of("host.toml");

    @Option(names = "--name", description = "profile name (default: calibrated)")
    String name = "calibrated";

    @Option(names = "--quick", description = "a few seconds instead of about a minute (fewer cells, shorter)")
    boolean quick;

    @Option(names = "--scenario", paramLabel = "SCENARIO",
        description = "measure the cells this scenario's runs issue (default: the core's defaults, 2.25 MiB slots)")
    String scenario;

    @Option(names = "--size", paramLabel = "BYTES",
        description = "calibration file size, a multiple of 1 MiB (default 1 GiB; --quick: 64 MiB)")
    long sizeBytes;

    @Option(names = "--no-fio", description = "do not run fio side by side even when it is installed")
    boolean noFio;

    @Option(names = "--repeat", description = "side-by-side rounds with fio (default 3)")
    int repeat = 3;

    @Option(names = "--compare-ms", description = "milliseconds of each side-by-side run (default 2000)")
    long compareMs = 2000;

    @Option(names = "--max-read-bytes-per-sec", paramLabel = "B/S",
        description = "a calibrated read bandwidth above this is suspect (default: no limit)")
    long maxReadBytesPerSec;

    @Option(names = "--max-write-bytes-per-sec", paramLabel = "B/S",
        description = "a calibrated write bandwidth above this is suspect (default: no limit)")
    long maxWriteBytesPerSec;

    @Option(names = "--accept-suspect", description = "write the profile even when a figure is suspect (with why)")
    boolean acceptSuspect;

    @Override
    public Integer call() {
        final RunShape shape;
        try {
            shape = scenario == null ? RunShape.DEFAULT
                : RunShape.of(ScenarioLoader.load(scenario, List.of()).spec().core());
        } catch (final ScenarioException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final CalibrationRun.Options options;
        try {
            options = new CalibrationRun.Options(device, out, name, quick, shape, sizeBytes,
                new DeviceCalibration.Checks(!noFio, quick ? 1 : repeat, (quick ? 500 : compareMs) * 1_000_000L,
                    maxReadBytesPerSec, maxWriteBytesPerSec),
                acceptSuspect);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final int rc = CalibrationRun.run(options, System.out).code();
        if (rc != CalibrationRun.OK) {
            return rc == CalibrationRun.SUSPECT ? ExitCodes.GATE : ExitCodes.BAD_INPUT;
        }
        final HostCostProfile host = HostCalibration.measure(name + "-host", quick ? 2 : 6, shape.slotBytes());
        try {
            Files.writeString(hostOut, HostCalibration.toml(host));
        } catch (final IOException e) {
            System.err.println("kvtier: cannot write " + hostOut + ": " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        System.out.printf("host %s: span %d ns, entry %d ns, I/O %d+%d ns, call %d ns, memcpy %.2f GB/s, checksum"
            + " %.2f GB/s, check %.2f GB/s, stamp %.2f GB/s, %d ns an event (observers) -> %s%n", host.name(),
            host.spanNs(), host.entryNs(), host.ioSubmitNs(), host.ioCompleteNs(), host.requestNs(),
            host.memcpyBytesPerSec() / 1e9, host.checksumBytesPerSec() / 1e9, host.verifyBytesPerSec() / 1e9,
            host.stampBytesPerSec() / 1e9, host.eventNs(), hostOut);
        return ExitCodes.OK;
    }
}
