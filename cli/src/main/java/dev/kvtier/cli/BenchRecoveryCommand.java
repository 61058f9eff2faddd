package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.bench.DiskBenches;
import dev.kvtier.realio.bench.RecoveryBench;
import dev.kvtier.realio.device.IoChoice;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

    @Mixin
    Invoked invoked = new Invoked();

    @Override
    public Integer call() {
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
        return DiskBenches.recovery(new DiskBenches.Scratch(device, forceOptions.force(), invoked.holder()), spec,
            repeat, io, System.out, System.err);
    }
}
