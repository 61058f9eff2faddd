package dev.kvtier.lab.calibrate;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.lab.results.ResultsIndex;
import dev.kvtier.lab.run.Repeats;
import dev.kvtier.realio.calibrate.CalibrationRun;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.time.temporal.ChronoUnit;

/**
 * A calibration of this machine: the disk under a scratch file ({@link CalibrationRun}: the cells a run issues, fio
 * side by side, the figures checked) written as a device profile, then the core ({@link HostRun}) as a host cost
 * profile. The scratch file is claimed (absent, empty or kvtier's scratch file unless forced) and locked while it is
 * measured; the profiles are written whole or not at all. With a results root, the profiles ({@code device.toml},
 * {@code host.toml}) and the metadata ({@link ResultInfo}) go into a new folder under its {@code calibrations/}
 * ({@link ResultFolders}), and the root's index is rewritten if it has one.
 */
public final class Calibrate {
    /** The largest calibration or benchmark file: 1 TiB. */
    public static final long SIZE_BYTES_MAX = 1L << 40;
    /** A calibration's scenario in its result folder's name and metadata. */
    public static final String SCENARIO = "calibrate";

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to calibrate.
     *
     * @param device              the scratch file measured
     * @param deviceOut           the device profile written (ignored with {@code results})
     * @param hostOut             the host cost profile written (ignored with {@code results})
     * @param hostRunDevice       where the host calibration runs run (an L2 file), or null for the microbenchmarks'
     *                            figures only
     * @param name                the profiles' name
     * @param quick               a few seconds instead of about a minute
     * @param scenario            the scenario whose cells are measured, or null for the core's defaults
     * @param sets                overrides of that scenario
     * @param sizeBytes           the calibration file's size, or 0 for the default
     * @param checks              fio side by side and the suspect limits
     * @param acceptSuspect       write the profile even when a figure is suspect
     * @param force               what may be written over
     * @param holder              who runs it, for the locks
     * @param results             a results root to write the profiles into as a result, or null
     * @param why                 why this calibration is made, for its metadata (with {@code results}), or null
     */
    public record Request(Path device, Path deviceOut, Path hostOut, Path hostRunDevice, String name, boolean quick,
                          String scenario, List<String> sets, long sizeBytes, DeviceCalibration.Checks checks,
                          boolean acceptSuspect,
                          Force force, Holder holder, Path results, String why) {}

    /** A calibration of {@code q}, printing on {@code out} and {@code err}. */
    public Calibrate(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
        final Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        final RunShape shape;
        final CalibrationRun.Options asked;
        try {
            final CoreConfig core = q.scenario() == null ? null
                : ScenarioLoader.load(q.scenario(), q.sets()).spec().core();
            shape = core == null ? RunShape.DEFAULT : RunShape.of(core);
            asked = options(q.deviceOut() != null ? q.deviceOut() : Path.of(Calibrated.DEVICE_TOML), 0, shape,
                fileBytes(q.sizeBytes(), q.quick(), core));
            checkPlan(asked);
        } catch (final ScenarioException | IllegalArgumentException | ArithmeticException e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final String bad = q.results() == null ? null : Outputs.checkResultsDir(q.results(), q.device());
        if (bad != null) {
            err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Claim claim;
        try {
            claim = Outputs.claimScratch(q.device(), "--device", q.force(), q.holder());
        } catch (final ClaimRefused e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final Conditions.Sampler sampler = Conditions.start(q.device());
        try {
            final Path folder = q.results() == null ? null : ResultFolders.create(q.results(),
                ResultKind.CALIBRATION, SCENARIO, Outputs.hostName(), at);
            final Path deviceOut = folder == null ? q.deviceOut() : folder.resolve(Calibrated.DEVICE_TOML);
            final Path hostOut = folder == null ? q.hostOut() : folder.resolve(Calibrated.HOST_TOML);
            final int rc = CalibrationRun.run(options(deviceOut, claim.baseOffset(), shape, asked.fileBytes()), out,
                err).code();
            if (rc != CalibrationRun.OK) {
                claim.abandon();
                ResultFolders.removeIfEmpty(folder);
                return rc == CalibrationRun.SUSPECT ? ExitCodes.GATE : ExitCodes.BAD_INPUT;
            }
            final int code = host(shape, hostOut);
            if (code == ExitCodes.OK) {
                final Conditions c = sampler.end();
                ConditionsStamp.apply(deviceOut, null, c);
                ConditionsStamp.apply(hostOut, null, c);
                out.println("conditions: " + c.describe());
                if (folder != null) {
                    result(folder, at, c, deviceOut, hostOut);
                }
            }
            return code;
        } catch (final IOException e) {
            err.println("kvtier: " + OutputFile.describe(q.results(), e));
            return ExitCodes.BAD_INPUT;
        } finally {
            claim.close();
        }
    }

    private CalibrationRun.Options options(final Path profile, final long offset, final RunShape shape,
                                           final long fileBytes) {
        return new CalibrationRun.Options(q.device(), offset, profile, q.name(), q.quick(), shape, fileBytes,
            q.checks(), q.acceptSuspect());
    }

    /** The metadata of a calibration written as a result (superseding the previous one on this host), the index. */
    private void result(final Path folder, final Instant at, final Conditions c, final Path deviceOut,
                        final Path hostOut) throws IOException {
        final String host = Outputs.hostName();
        final Optional<ResultFolders.Result> before = ResultFolders.previous(q.results(), ResultKind.CALIBRATION,
            SCENARIO, host, at, folder);
        final String previous = before.map(ResultFolders.Result::name).orElse(null);
        final List<String> drift = before.map(b -> CalibrationDrift.lines(b.folder(), b.name(), deviceOut, hostOut))
            .orElse(List.of());
        drift.forEach(out::println);
        final ResultInfo i = ResultInfo.of(ResultKind.CALIBRATION, SCENARIO, host, at, null, previous, q.why());
        final String conditions = i.conditions() + "; scratch file " + q.device() + "; " + (q.quick() ? "quick"
            : "full") + " plan; cells of " + (q.scenario() == null ? "the core's defaults" : q.scenario())
            + (q.hostRunDevice() == null ? "" : "; host byte work from real runs on " + q.hostRunDevice())
            + "; " + c.describe() + drift.stream().map(d -> "; " + d).collect(Collectors.joining());
        out.println("wrote " + new ResultInfo(i.kind(), i.scenario(), i.host(), i.created(), i.verdict(),
            i.headline(), conditions, i.supersedes(), i.why()).write(folder));
        final Path index = ResultsIndex.refreshIfIndexed(q.results());
        if (index != null) {
            out.println("wrote " + index);
        }
    }

    /**
     * The calibration file's size: {@code --size}, else the scenario's L2 (a disk behind a cache, as a VM's often
     * is, writes a small file several times faster than one the size of the run's: measured here, fio at 64 MiB
     * depth 8 wrote 4.2 GB/s on a 1 GiB file and 1.9 GB/s on a 5 GiB one), else the plan's default (0).
     */
    public static long fileBytes(final long sizeBytes, final boolean quick, final CoreConfig core) {
        if (sizeBytes > 0 || quick || core == null) {
            return sizeBytes;
        }
        return Math.ceilDiv(core.l2Bytes(), 1L << 20) << 20;
    }

    /** The plan the options ask for, refused with {@code --size} named when the file cannot hold it. */
    private static void checkPlan(final CalibrationRun.Options asked) {
        try {
            asked.plan();
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--size " + asked.fileBytes() + " cannot hold the calibration: "
                + e.getMessage(), e);
        }
    }

    private int host(final RunShape shape, final Path hostOut) {
        out.println("measuring this machine's core (per span, entry, I/O and call, memcpy, checksum, check"
            + " and fill bandwidth, observers)");
        try {
            final boolean done = HostRun.measure(q.name() + "-host", shape.slotBytes(), q.quick(),
                q.hostRunDevice() == null ? null
                    : new Repeats.RealDevice(q.hostRunDevice(), IoChoice.AUTO, q.force(), q.holder()),
                hostOut, out);
            if (!done) {
                return ExitCodes.BAD_INPUT;
            }
        } catch (final IOException e) {
            err.println("kvtier: " + OutputFile.describe(hostOut, e));
            return ExitCodes.BAD_INPUT;
        }
        out.println("host profile -> " + hostOut);
        return ExitCodes.OK;
    }
}
