package dev.kvtier.cli;

import dev.kvtier.realio.bench.RecoveryBench;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kvtier bench-recovery}: how long opening the crash-safe index with recover takes on a real file: the index a
 * ring of {@code --slots} slots leaves with {@code --chunks} committed chunks in its checkpoint and {@code --records}
 * log records after it, read through O_DIRECT. Prints each repetition and the time per GiB of L2 and per million
 * records. A benchmark, not a test.
 */
@Command(name = "bench-recovery", mixinStandardHelpOptions = true,
    description = "Time recovering the crash-safe L2 index from a real index file (O_DIRECT).")
public final class BenchRecoveryCommand implements Callable<Integer> {
    private static final long QWEN3_8B_SLOT_BYTES = 2_359_296;
    private static final int TEN_GIB_SLOTS = (int) ((10L << 30) / QWEN3_8B_SLOT_BYTES);

    /** Most ring slots (an index of about 900 MiB). */
    static final int SLOTS_MAX = 10_000_000;
    /** Most log records. */
    static final long RECORDS_MAX = 100_000_000;
    /** Most timed opens. */
    static final int REPEAT_MAX = 1000;
    /** Largest slot. */
    static final long SLOT_BYTES_MAX = 1L << 30;

    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the index file to build "
        + "(absent, empty or a kvtier scratch file unless --force; on a file system with O_DIRECT)")
    Path device;

    @Option(names = "--slots", paramLabel = "N", description = "ring slots (default 4551, a 10 GiB ring of 2.25 MiB "
        + "slots; with --records, at least as many as one lap of the log needs)")
    Integer slots;

    @Option(names = "--slot-bytes", paramLabel = "B", description = "slot size (default 2359296, Qwen3-8B bf16)")
    long slotBytes = QWEN3_8B_SLOT_BYTES;

    @Option(names = "--chunks", paramLabel = "N", description = "committed one-slot chunks in the checkpoint "
        + "(default: every slot)")
    Integer chunks;

    @Option(names = "--records", paramLabel = "M", description = "log records after the checkpoint (default 0)")
    long records;

    @Option(names = "--repeat", paramLabel = "R", description = "timed opens (default 3)")
    int repeat = 3;

    @Option(names = "--io", description = "auto (io_uring, else FileChannel), uring or filechannel")
    IoChoice io = IoChoice.AUTO;

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Spec
    CommandSpec commandSpec;

    @Override
    public Integer call() {
        final PrintStream out = System.out;
        if (repeat < 1 || repeat > REPEAT_MAX || slotBytes <= 0 || slotBytes % 4096 != 0 || slotBytes > SLOT_BYTES_MAX
            || records < 0 || records > RECORDS_MAX || (slots != null && (slots < 1 || slots > SLOTS_MAX))) {
            System.err.println("kvtier: need 1 <= --repeat <= " + REPEAT_MAX + ", --slot-bytes a positive multiple of "
                + "4096 up to " + SLOT_BYTES_MAX + ", 1 <= --slots <= " + SLOTS_MAX + ", 0 <= --records <= "
                + RECORDS_MAX + " and 0 <= --chunks <= --slots");
            return ExitCodes.BAD_INPUT;
        }
        final int ring = slots != null ? slots : Math.max(TEN_GIB_SLOTS, RecoveryBench.slotsFor(records));
        if (ring > SLOTS_MAX || (chunks != null && (chunks < 0 || chunks > ring))) {
            System.err.println("kvtier: need 0 <= --chunks <= --slots (" + ring + ")" + (ring > SLOTS_MAX
                ? " and at most " + SLOTS_MAX + " slots: --records " + records + " needs " + ring : ""));
            return ExitCodes.BAD_INPUT;
        }
        final RecoveryBench.Spec spec = new RecoveryBench.Spec(ring, slotBytes, chunks != null ? chunks : ring,
            records);
        final Claim claim;
        try {
            claim = Outputs.claimScratch(device, "--device", forceOptions.force(), commandSpec);
        } catch (final ClaimRefused e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            return bench(spec, claim.baseOffset(), io, out);
        } catch (final IOException | IllegalArgumentException | IllegalStateException e) {
            claim.abandon();
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } finally {
            claim.close();
        }
    }

    private int bench(final RecoveryBench.Spec spec, final long base, final IoChoice choice,
                      final PrintStream out) throws IOException {
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
                System.err.printf("kvtier: recovery found %d chunks and %d records, the index holds %d and %d%n",
                    t.chunks(), t.records(), built.liveChunks(), built.records());
                return ExitCodes.INVARIANT;
            }
            best = Math.min(best, t.openNanos());
            out.printf(Locale.ROOT, "open %d: recovered in %.1f ms (read and replay), open done in %.1f ms (with the "
                + "first checkpoint); %,d B read; %.1f ms per GiB of L2%s%n", i, t.recoverNanos() / 1e6,
                t.openNanos() / 1e6, t.bytesRead(), t.openNanos() / 1e6 / l2GiB, records > 0
                    ? String.format(Locale.ROOT, ", %.1f ms per million records", t.openNanos() / 1e6
                        / (spec.records() / 1e6))
                    : "");
        }
        out.printf(Locale.ROOT, "best open: %.1f ms%n", best / 1e6);
        return ExitCodes.OK;
    }
}
