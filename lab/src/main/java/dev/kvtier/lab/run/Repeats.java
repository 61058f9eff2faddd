package dev.kvtier.lab.run;

import dev.kvtier.lab.signoff.CpuShare;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.DiskMeter;
import dev.kvtier.realio.run.LoopTime;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Repeated runs of one scenario, real or simulated, repetition i with seed + i (so the real and the simulated runs
 * of a repetition are paired); each prints its summary.
 */
public final class Repeats {
    /** Wall-time limit of a real run. */
    private static final long REAL_RUN_TIMEOUT_NS = 3_600_000_000_000L;

    private Repeats() {}

    /**
     * Where real runs run: an L2 file or block device, claimed as {@code kvtier run} claims it.
     *
     * @param device the L2 file or block device
     * @param io     the kind of I/O
     * @param force  what may be written over
     * @param holder who holds the device's lock
     */
    public record RealDevice(Path device, IoChoice io, Force force, Holder holder) {}

    /** Real runs and, for each, how much of the machine it had. */
    public record RealRuns(List<RunReport> reports, List<CpuShare> cpu, List<ByteWork> work,
                           List<DiskMeter.Figures> disk, List<LoopTime> loop) {
        public RealRuns {
            reports = List.copyOf(reports);
            cpu = List.copyOf(cpu);
            work = List.copyOf(work);
            disk = List.copyOf(disk);
            loop = List.copyOf(loop);
        }
    }

    /**
     * {@code n} real runs on {@code device}, each claiming it (and its index) as {@code kvtier run} does, with
     * {@code force} and as {@code holder}; empty (the reason on stderr) when the device is unusable or refused.
     */
    public static Optional<RealRuns> real(final Scenario sc, final long seed, final int n, final Path device,
                                          final IoChoice io, final Force force, final Holder holder,
                                          final PrintStream out) {
        final List<RunReport> real = new ArrayList<>();
        final List<CpuShare> cpu = new ArrayList<>();
        final List<ByteWork> work = new ArrayList<>();
        final List<DiskMeter.Figures> disk = new ArrayList<>();
        final List<LoopTime> loop = new ArrayList<>();
        final RealDevice target = new RealDevice(device, io, force, holder);
        for (int i = 0; i < n; i++) {
            out.println("== real run " + (i + 1) + " of " + n + ": " + sc.name() + " on " + device + ", seed "
                + (seed + i));
            final long settleNs = settle(device, out);
            final long[] before = CpuShare.now();
            final long t0 = System.nanoTime();
            final Optional<RealRun.Result> r = realRun(sc, seed + i, target, out);
            if (r.isEmpty()) {
                return Optional.empty();
            }
            real.add(r.get().report());
            work.add(r.get().work());
            disk.add(r.get().disk());
            loop.add(r.get().loop());
            cpu.add(CpuShare.between(seed + i, System.nanoTime() - t0, before, CpuShare.now(), settleNs));
            RunSummary.summary(out, real.getLast(), real.getLast().elapsedNanos());
            out.println("cpu: " + cpu.getLast().describe() + (cpu.getLast().busy() ? " -- a busy machine" : ""));
            out.println("host byte work on the loop thread: " + work.getLast().describe());
            out.println(r.get().loop().describe());
        }
        return Optional.of(new RealRuns(real, cpu, work, disk, loop));
    }

    /**
     * One real run of {@code sc} with {@code seed} on {@code t}'s device, claimed as {@code kvtier run} claims it;
     * empty (the reason on stderr) when the device is unusable or refused.
     */
    public static Optional<RealRun.Result> realRun(final Scenario sc, final long seed, final RealDevice t,
                                                   final PrintStream out) {
        try {
            return Optional.of(Runs.real(sc, seed, new RealTarget(t.device(), null, false, t.io(), REAL_RUN_TIMEOUT_NS,
                t.force(), t.holder()), out));
        } catch (final BadDevice e) {
            System.err.println("kvtier: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** {@link #settle(Path)}, saying on {@code out} how long the FLUSH took when there was a file to settle. */
    public static long settle(final Path device, final PrintStream out) {
        final long settleNs = settle(device);
        if (settleNs >= 0) {
            out.println(String.format(Locale.ROOT, "settled the disk before the run: FLUSH %.0f ms", settleNs / 1e6));
        }
        return settleNs;
    }

    /**
     * Settles the disk under {@code device} before a real run: an fsync of the file (on ext4 and xfs a FLUSH of the
     * disk's volatile cache, as for a block device), so the run does not pay for the write-back of what ran before it
     * (a calibration's write passes, fio, the last run), as the simulated run, whose disk cache starts empty, does
     * not. Opened for reading only: nothing is written. Returns how long it took, or -1 when the file does not exist
     * yet (the run creates it) or the fsync failed.
     */
    public static long settle(final Path device) {
        if (!Files.exists(device)) {
            return -1;
        }
        try (FileChannel ch = FileChannel.open(device, StandardOpenOption.READ)) {
            final long t0 = System.nanoTime();
            ch.force(true);
            return System.nanoTime() - t0;
        } catch (final IOException e) {
            return -1;
        }
    }

    /** {@code n} runs in virtual time of {@code sc} (whose {@code [sim]} names the calibrated profiles). */
    public static List<RunReport> sim(final Scenario sc, final long seed, final int n, final PrintStream out) {
        final List<RunReport> sim = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final long start = System.nanoTime();
            sim.add(Runs.virtual(sc, seed + i));
            RunSummary.summary(out, sim.getLast(), System.nanoTime() - start);
        }
        return sim;
    }
}
