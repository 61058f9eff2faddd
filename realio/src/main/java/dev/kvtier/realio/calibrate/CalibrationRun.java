package dev.kvtier.realio.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.IoUringLimits;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.memory.NativeMemory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code kvtier calibrate}'s device half: opens the file with io_uring and O_DIRECT, calibrates it
 * ({@link DeviceCalibration}) and writes the profile, unless a figure is suspect: then the profile is written only
 * when asked ({@link Options#acceptSuspect}), with the reasons in it. The file is measured from
 * {@link Options#baseOffset} on (kvtier's header of a claimed scratch file lies before it, and neither the meter nor
 * fio touches it); the profile is written whole or not at all ({@link OutputFile}). Argument parsing, and claiming
 * the file, is the CLI's.
 */
public final class CalibrationRun {
    /** The profile was written and nothing is suspect (or the suspect one was accepted). */
    public static final int OK = 0;
    /** The device could not be opened or measured, it did not read back what was written, or a write failed. */
    public static final int REFUSED = 2;
    /** A figure is suspect and the profile was not written. */
    public static final int SUSPECT = 4;

    private static final long MIB = 1L << 20;

    /**
     * What to calibrate and where the profile goes.
     *
     * @param file          the scratch file (claimed by the caller) or block device; its contents after
     *                      {@code baseOffset} are lost
     * @param baseOffset    where the measured bytes start in {@code file} (0, or past kvtier's header)
     * @param profile       the profile to write
     * @param name          the profile's name
     * @param quick         the quick plan (seconds) rather than the full one (about a minute)
     * @param shape         the run whose cells are measured and give the bandwidths
     * @param fileBytes     the file's size for the full plan (0: 1 GiB); the quick plan uses 64 MiB
     * @param checks        fio side by side and limits
     * @param acceptSuspect write the profile even when a figure is suspect (the reasons go into it)
     */
    public record Options(Path file, long baseOffset, Path profile, String name, boolean quick, RunShape shape,
                          long fileBytes, DeviceCalibration.Checks checks, boolean acceptSuspect) {
        public Options {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(shape, "shape");
            Objects.requireNonNull(checks, "checks");
            if (baseOffset < 0 || baseOffset % 4096 != 0) {
                throw new IllegalArgumentException("base offset must be a multiple of 4096, got " + baseOffset);
            }
            if (fileBytes < 0 || fileBytes % MIB != 0) {
                throw new IllegalArgumentException("calibration file size must be a multiple of 1 MiB, got "
                    + fileBytes);
            }
        }

        /** These options measuring from {@code offset} on (past the header of the claimed scratch file). */
        public Options at(final long offset) {
            return new Options(file, offset, profile, name, quick, shape, fileBytes, checks, acceptSuspect);
        }

        /** The plan these options ask for. */
        public DeviceCalibration.Plan plan() {
            return DeviceCalibration.plan(quick, shape, fileBytes);
        }
    }

    /**
     * How it went.
     *
     * @param code        {@link #OK}, {@link #REFUSED} or {@link #SUSPECT}
     * @param calibration the calibration (null when refused)
     */
    public record Outcome(int code, Calibration calibration) {}

    private CalibrationRun() {}

    /** Calibrates and writes the profile; what happened goes to {@code out}, one line a step, refusals too. */
    public static Outcome run(final Options o, final PrintStream out) {
        return run(o, out, out);
    }

    /**
     * Calibrates and writes the profile; what happened goes to {@code out}, one line a step; why it was refused (the
     * device, the read-back or the profile's write) goes to {@code err} as one {@code kvtier: } line.
     */
    public static Outcome run(final Options o, final PrintStream out, final PrintStream err) {
        final DeviceCalibration.Plan plan = o.plan();
        final Opened opened = open(o.file(), o.baseOffset(), plan);
        if (opened.result() instanceof OpenResult.Failed f) {
            err.println("kvtier: calibration needs io_uring with O_DIRECT: " + f.message());
            return new Outcome(REFUSED, null);
        }
        final NativeMemory memory = opened.memory();
        final Calibration calibration;
        try (memory; PolledDevice device = opened.result().orThrow()) {
            calibration = DeviceCalibration.calibrate(device, memory, o.name(), plan, o.checks(), opened.target(),
                out);
        } catch (final DeviceCalibration.NotPreconditioned e) {
            err.println("kvtier: calibration refused: " + e.getMessage());
            return new Outcome(REFUSED, null);
        }
        for (final String note : calibration.notes()) {
            out.println("note: " + note);
        }
        for (final String s : calibration.suspect()) {
            out.println("SUSPECT: " + s);
        }
        final DeviceProfile p = calibration.profile();
        if (!calibration.suspect().isEmpty() && !o.acceptSuspect()) {
            out.println("profile NOT written (a figure is suspect; --accept-suspect writes it with the reasons)");
            return new Outcome(SUSPECT, calibration);
        }
        try {
            OutputFile.writeString(o.profile(), ProfileToml.write(calibration, ("kvtier device profile of "
                + o.file().toAbsolutePath() + " (io_uring, O_DIRECT, " + (o.quick() ? "quick" : "full") + " plan)")
                .replace('\n', ' ').replace('\r', ' ')));
        } catch (final IOException e) {
            err.println("kvtier: " + OutputFile.describe(o.profile(), e));
            return new Outcome(REFUSED, calibration);
        }
        out.println("profile " + p.name() + ": read " + p.readLatencyNs() + " ns, write " + p.writeLatencyNs()
            + " ns, flush " + p.flushLatencyNs() + " ns, " + p.readBytesPerSec() + " B/s read, "
            + p.writeBytesPerSec() + " B/s write, parallelism " + p.parallelism() + ", drain " + p.drainBytesPerSec()
            + " B/s after " + p.drainDelayNs() + " ns -> " + o.profile()
            + (calibration.suspect().isEmpty() ? "" : " (SUSPECT, accepted)"));
        return new Outcome(OK, calibration);
    }

    /**
     * {@code file} from {@code baseOffset} on, opened for {@code plan}'s cells (io_uring, O_DIRECT, memory for the
     * plan's buffers); when the open failed, its memory is already closed.
     */
    record Opened(DeviceFile target, NativeMemory memory, OpenResult result) {}

    static Opened open(final Path file, final long baseOffset, final DeviceCalibration.Plan plan) {
        final DeviceFile target = new DeviceFile(file, baseOffset, plan.fileBytes());
        final NativeMemory memory = new NativeMemory(plan.bufferBytes() + 64 * MIB);
        final OpenResult result = IoUringDevice.open(LibcKernel.create(), target, IoUringLimits.of(plan.depthMax()),
            memory);
        if (result instanceof OpenResult.Failed) {
            memory.close();
        }
        return new Opened(target, memory, result);
    }
}
