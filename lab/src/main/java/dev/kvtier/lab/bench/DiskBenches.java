package dev.kvtier.lab.bench;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.realio.bench.BenchIo;
import dev.kvtier.realio.bench.RecoveryBench;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The disk benchmarks of {@code kvtier bench-io} and {@code bench-recovery}, each on a scratch file claimed as
 * kvtier's first (absent, empty or kvtier's scratch file unless forced; locked while it runs; given up when a
 * measurement fails, so a file this run created is removed).
 */
public final class DiskBenches {
    private DiskBenches() {}

    /**
     * The file a benchmark runs on.
     *
     * @param device the scratch file or block device
     * @param force  what may be written over
     * @param holder who runs it, for the lock
     */
    public record Scratch(Path device, Force force, Holder holder) {}

    /**
     * io_uring, FileChannel and (with {@code fio}) fio on the same file: GB/s and IOPS at several block sizes and
     * depths; the exit code.
     */
    public static int io(final Scratch s, final long sizeBytes, final BenchIo.Plan plan, final PrintStream out,
                         final PrintStream err) {
        return onScratch(s, err, base -> BenchIo.run(s.device(), base, sizeBytes, plan, out, err) == 0
            ? ExitCodes.OK : ExitCodes.BAD_INPUT);
    }

    /** How long recovering the index of {@code spec} takes, {@code repeat} times with {@code io}; the exit code. */
    public static int recovery(final Scratch s, final RecoveryBench.Spec spec, final int repeat, final IoChoice io,
                               final PrintStream out, final PrintStream err) {
        return onScratch(s, err, base -> recovery(s.device(), spec, base, repeat, io, out, err));
    }

    /** A benchmark on a claimed scratch file, given the offset kvtier's header leaves; returns its exit code. */
    private interface OnScratch {
        int run(long baseOffset) throws IOException;
    }

    /**
     * Claims the scratch file, runs {@code work} on it and closes the claim; a refused claim, or a measurement that
     * failed (bad input, or an I/O or argument error, said on {@code err}), gives the claim up, so a file this run
     * created is removed.
     */
    private static int onScratch(final Scratch s, final PrintStream err, final OnScratch work) {
        final Claim claim;
        try {
            claim = Outputs.claimScratch(s.device(), "--device", s.force(), s.holder());
        } catch (final ClaimRefused e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            final int rc = work.run(claim.baseOffset());
            if (rc == ExitCodes.BAD_INPUT) {
                claim.abandon();
            }
            return rc;
        } catch (final IOException | IllegalArgumentException | IllegalStateException e) {
            claim.abandon();
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } finally {
            claim.close();
        }
    }

    private static int recovery(final Path device, final RecoveryBench.Spec spec, final long base, final int repeat,
                                final IoChoice choice, final PrintStream out,
                                final PrintStream err) throws IOException {
        final double l2GiB = spec.l2Bytes() / (double) (1L << 30);
        out.printf(Locale.ROOT, "ring %,d slots of %,d B (L2 %.1f GiB); index device %,d B (checkpoint areas 2 x %,d B,"
            + " log area %,d B)%n", spec.slots(), spec.slotBytes(), l2GiB, spec.layout().deviceBytes(),
            spec.layout().checkpointBytes(), spec.layout().logBytes());
        final long w0 = System.nanoTime();
        final RecoveryBench.Built built = RecoveryBench.write(device, base, spec);
        out.printf(Locale.ROOT, "built %s: checkpoint of %,d chunks, %,d log records (%,d B); %,d chunks live at the "
            + "end; in %.1f s%n", device, spec.chunks(), built.records(), built.logBytes(), built.liveChunks(),
            (System.nanoTime() - w0) / 1e9);
        long best = Long.MAX_VALUE;
        for (int i = 1; i <= repeat; i++) {
            RecoveryBench.reset(device, base, spec);
            final RecoveryBench.Timing t = RecoveryBench.open(device, base, spec, choice);
            if (t.chunks() != built.liveChunks() || t.records() != built.records()) {
                err.printf("kvtier: recovery found %d chunks and %d records, the index holds %d and %d%n",
                    t.chunks(), t.records(), built.liveChunks(), built.records());
                return ExitCodes.INVARIANT;
            }
            best = Math.min(best, t.openNanos());
            out.printf(Locale.ROOT, "open %d: recovered in %.1f ms (read and replay), open done in %.1f ms (with the "
                + "first checkpoint); %,d B read; %.1f ms per GiB of L2%s%n", i, t.recoverNanos() / 1e6,
                t.openNanos() / 1e6, t.bytesRead(), t.openNanos() / 1e6 / l2GiB, spec.records() > 0
                    ? String.format(Locale.ROOT, ", %.1f ms per million records", t.openNanos() / 1e6
                        / (spec.records() / 1e6))
                    : "");
        }
        out.printf(Locale.ROOT, "best open: %.1f ms%n", best / 1e6);
        return ExitCodes.OK;
    }
}
