package dev.kvtier.lab.calibrate;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
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
import java.util.List;

/**
 * A calibration of this machine: the disk under a scratch file ({@link CalibrationRun}: the cells a run issues, fio
 * side by side, the figures checked) written as a device profile, then the core ({@link HostRun}) as a host cost
 * profile. The scratch file is claimed (absent, empty or kvtier's scratch file unless forced) and locked while it is
 * measured; the profiles are written whole or not at all.
 */
public final class Calibrate {
    /** The largest calibration or benchmark file: 1 TiB. */
    public static final long SIZE_BYTES_MAX = 1L << 40;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to calibrate.
     *
     * @param device              the scratch file measured
     * @param deviceOut           the device profile written
     * @param hostOut             the host cost profile written
     * @param hostRunDevice       where the host calibration runs run (an L2 file), or null for the microbenchmarks'
     *                            figures only
     * @param name                the profiles' name
     * @param quick               a few seconds instead of about a minute
     * @param scenario            the scenario whose cells are measured, or null for the core's defaults
     * @param sizeBytes           the calibration file's size, or 0 for the default
     * @param checks              fio side by side and the suspect limits
     * @param acceptSuspect       write the profile even when a figure is suspect
     * @param force               what may be written over
     * @param holder              who runs it, for the locks
     */
    public record Request(Path device, Path deviceOut, Path hostOut, Path hostRunDevice, String name, boolean quick,
                          String scenario, long sizeBytes, DeviceCalibration.Checks checks, boolean acceptSuspect,
                          Force force, Holder holder) {}

    /** A calibration of {@code q}, printing on {@code out} and {@code err}. */
    public Calibrate(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
        final RunShape shape;
        final CalibrationRun.Options asked;
        try {
            final CoreConfig core = q.scenario() == null ? null
                : ScenarioLoader.load(q.scenario(), List.of()).spec().core();
            shape = core == null ? RunShape.DEFAULT : RunShape.of(core);
            asked = new CalibrationRun.Options(q.device(), 0, q.deviceOut(), q.name(), q.quick(), shape,
                fileBytes(q.sizeBytes(), q.quick(), core), q.checks(), q.acceptSuspect());
            checkPlan(asked);
        } catch (final ScenarioException | IllegalArgumentException | ArithmeticException e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final Claim claim;
        try {
            claim = Outputs.claimScratch(q.device(), "--device", q.force(), q.holder());
        } catch (final ClaimRefused e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            final int rc = CalibrationRun.run(asked.at(claim.baseOffset()), out, err).code();
            if (rc != CalibrationRun.OK) {
                claim.abandon();
                return rc == CalibrationRun.SUSPECT ? ExitCodes.GATE : ExitCodes.BAD_INPUT;
            }
            return host(shape);
        } finally {
            claim.close();
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

    private int host(final RunShape shape) {
        out.println("measuring this machine's core (per span, entry, I/O and call, memcpy, checksum, check"
            + " and fill bandwidth, observers)");
        try {
            final boolean done = HostRun.measure(q.name() + "-host", shape.slotBytes(), q.quick(),
                q.hostRunDevice() == null ? null
                    : new Repeats.RealDevice(q.hostRunDevice(), IoChoice.AUTO, q.force(), q.holder()),
                q.hostOut(), out);
            if (!done) {
                return ExitCodes.BAD_INPUT;
            }
        } catch (final IOException e) {
            err.println("kvtier: " + OutputFile.describe(q.hostOut(), e));
            return ExitCodes.BAD_INPUT;
        }
        out.println("host profile -> " + q.hostOut());
        return ExitCodes.OK;
    }
}
