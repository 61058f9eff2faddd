package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.calibrate.Calibrate;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.files.OutputFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kvtier calibrate}: measures a disk into a device profile and this machine's core into a host cost profile,
 * both in the TOML shape a scenario's {@code sim.device} and {@code sim.host} accept. The disk: a full write pass
 * first (every read reads bytes this run wrote), a matrix of reads and writes (4 KiB to 8 MiB, depths 1 to 64) and the
 * cells a run issues (the scenario's slot-sized and grouped writes and reads at its depth), with io_uring and
 * O_DIRECT; then, when fio is installed, the profile's bandwidth cells side by side with fio on the same file. A figure
 * above fio's by more than 15 %, or above a limit given here, is suspect: the profile is then not written (exit 4)
 * unless {@code --accept-suspect}.
 *
 * <p>The scratch file is claimed as kvtier's ({@link Outputs#claimScratch}) and measured after kvtier's header; the
 * profiles go under {@code kvtier-out/} unless named, each written whole or not at all.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Measure a disk and this machine's core into simulator profiles (device and host cost TOML).")
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH",
        description = "a scratch file (created) or a block device on the disk to measure; absent, empty or a kvtier "
            + "scratch file unless --force; its contents are lost")
    Path device;

    @Option(names = "--out", paramLabel = "PROFILE", description = "device profile to write (default "
        + "kvtier-out/calibrate/device.toml)")
    Path out;

    @Option(names = "--host-out", paramLabel = "PROFILE", description = "host cost profile (default "
        + "kvtier-out/calibrate/host.toml)")
    Path hostOut;

    @Option(names = "--results", paramLabel = "DIR", description = "write the profiles as a result instead of to "
        + "--out and --host-out: a new folder DIR/calibrations/<date>-<HHMM>-calibrate-<host> (device.toml, host.toml,"
        + " result.json); --results results adds it to the committed ones and rewrites results/README.md")
    Path results;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this calibration is made (one line, in its "
        + "result.json; with --results)")
    String why;

    @Option(names = "--host-run-device", paramLabel = "PATH", description = "take the host profile's copy, checksum,"
        + " fill and check bandwidths and its cost per copy from real runs of the host calibration workload (as it is"
        + " and per slot) on this L2 file or block device (claimed as a run's, as signoff and fidelity do; default:"
        + " the microbenchmarks' figures, no cost per copy)")
    Path hostRunDevice;

    @Option(names = "--name", description = "profile name (default: calibrated)")
    String name = "calibrated";

    @Option(names = "--quick", description = "a few seconds instead of about a minute (fewer cells, shorter)")
    boolean quick;

    @Option(names = "--scenario", paramLabel = "SCENARIO",
        description = "measure the cells this scenario's runs issue (default: the core's defaults, 2.25 MiB slots)")
    String scenario;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "override a key of the --scenario, e.g. model.layers=4 (repeatable)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--size", paramLabel = "BYTES",
        description = "calibration file size, a multiple of 1 MiB (default: the --scenario's L2 size rounded up to"
            + " 1 MiB, else 1 GiB; --quick: 64 MiB)")
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

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Mixin
    Invoked invoked = new Invoked();

    @Override
    public Integer call() {
        if (results != null && (out != null || hostOut != null)) {
            System.err.println("kvtier: --results writes the profiles into the result's folder: give it without --out "
                + "and --host-out");
            return ExitCodes.BAD_INPUT;
        }
        out = out != null ? out : Outputs.defaultPath("calibrate", "device.toml");
        hostOut = hostOut != null ? hostOut : Outputs.defaultPath("calibrate", "host.toml");
        String bad = Outputs.checkName("--name", name);
        bad = bad != null ? bad : badNumbers();
        bad = bad != null ? bad : OutputFile.check(out, "--out", List.of(device));
        bad = bad != null ? bad : OutputFile.check(hostOut, "--host-out", List.of(device, out));
        if (bad == null && hostRunDevice != null && hostRunDevice.toAbsolutePath().normalize().equals(
            device.toAbsolutePath().normalize())) {
            bad = "--host-run-device must not be the calibration's --device (a scratch file): give a run's L2 file";
        }
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final DeviceCalibration.Checks checks;
        try {
            checks = new DeviceCalibration.Checks(!noFio, quick ? 1 : repeat, Math.multiplyExact(quick ? 500
                : compareMs, 1_000_000L), maxReadBytesPerSec, maxWriteBytesPerSec);
        } catch (final IllegalArgumentException | ArithmeticException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (!sets.isEmpty() && scenario == null) {
            System.err
                .println("kvtier: --set goes with --scenario (it overrides the scenario whose cells are measured)");
            return ExitCodes.BAD_INPUT;
        }
        return new Calibrate(new Calibrate.Request(device, out, hostOut, hostRunDevice, name, quick, scenario, sets,
            sizeBytes, checks, acceptSuspect, forceOptions.force(), invoked.holder(), results, why), System.out,
            System.err).run();
    }

    /** Null, or the first option whose number is out of range. */
    private String badNumbers() {
        if (sizeBytes < 0 || sizeBytes % (1L << 20) != 0 || sizeBytes > Calibrate.SIZE_BYTES_MAX) {
            return "--size must be a multiple of 1 MiB (1048576) up to 1 TiB, got " + sizeBytes;
        }
        if (repeat < 1 || repeat > 1000) {
            return "--repeat must be 1 to 1000, got " + repeat;
        }
        if (compareMs < 1 || compareMs > 3_600_000L) {
            return "--compare-ms must be 1 to 3600000, got " + compareMs;
        }
        if (maxReadBytesPerSec < 0 || maxWriteBytesPerSec < 0) {
            return "--max-read-bytes-per-sec and --max-write-bytes-per-sec must be 0 (no limit) or more, got "
                + maxReadBytesPerSec + " and " + maxWriteBytesPerSec;
        }
        return null;
    }
}
