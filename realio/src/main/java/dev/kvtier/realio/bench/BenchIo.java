package dev.kvtier.realio.bench;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.calibrate.FioRunner;
import dev.kvtier.realio.calibrate.IoMeter;
import dev.kvtier.realio.calibrate.Measurement;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.FileChannelDevice;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.host.ProcStat;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The I/O benchmark. On one file it measures, cell by cell (random reads and writes of 4 KiB, 64 KiB and 1 MiB at
 * depths 1, 16 and 32, O_DIRECT), the io_uring device, the FileChannel device and, when on PATH, fio with ioengine
 * io_uring set up like kvtier (registered file and buffers, the same kind of buffer memory: {@link FioRunner}) and,
 * for reference, fio without registration. kvtier and fio alternate over {@code rounds} rounds (kvtier first in even
 * rounds, fio first in odd ones) and each side's median round is reported, with the CPU time it spent per I/O. Then it
 * prints a table with the ratios io_uring / fio (like for like) and io_uring / FileChannel and the targets: io_uring
 * at least 95 % of like-for-like fio's IOPS at 4 KiB, depths 1, 16 and 32; at least 90 % of its bandwidth at 1 MiB
 * depth 16; at least 1.3x the FileChannel device at 64 KiB depth 16.
 *
 * <p>Run it as {@code kvtier bench-io}. The file is preconditioned first: one full write pass, then sampled pages
 * read back as written (else the benchmark stops: a read of a range never written returns zeros without touching
 * the disk and measures nothing), so every read of every I/O path reads bytes this run wrote. fio gets huge-page
 * buffers when enough are reserved ({@code vm.nr_hugepages}), as kvtier's memory is; otherwise its default 4 KiB
 * pages, which on a virtual disk cost it much more than huge pages cost kvtier (see {@link FioRunner}): the header
 * says which.
 */
public final class BenchIo {
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    /**
     * One row: a cell measured by each I/O path (fio empty when it did not run).
     *
     * @param uring       kvtier's io_uring device, its median round
     * @param fileChannel the FileChannel device, one round
     * @param fio         fio registered like kvtier, its median round
     * @param fioPlain    fio without registration, its median round
     */
    record Row(IoOp op, long block, int depth, Measurement uring, Measurement fileChannel, Optional<Measurement> fio,
               Optional<Measurement> fioPlain) {}

    /**
     * What to run.
     *
     * @param seconds seconds a cell and round
     * @param fio     run fio side by side when installed
     * @param quick   a small subset in a fraction of a second, no fio
     * @param rounds  rounds of each cell (kvtier and fio alternating)
     * @param blocks  block sizes to measure (empty: 4 KiB, 64 KiB and 1 MiB)
     * @param depths  depths to measure (empty: 1, 16 and 32)
     */
    public record Plan(long seconds, boolean fio, boolean quick, int rounds, List<Long> blocks, List<Integer> depths) {
        public Plan {
            if (rounds < 1 || seconds < 0) {
                throw new IllegalArgumentException("at least one round, and no negative time, got " + rounds + " x "
                    + seconds + " s");
            }
            blocks = List.copyOf(blocks);
            depths = List.copyOf(depths);
            if (blocks.stream().anyMatch(b -> b < 4 * KIB || b > 8 * MIB || b % (4 * KIB) != 0)
                || depths.stream().anyMatch(d -> d < 1 || d > 256)) {
                throw new IllegalArgumentException("blocks are whole 4 KiB pages up to 8 MiB and depths 1 to 256, got "
                    + blocks + " and " + depths);
            }
        }

        /** Every cell of the default table. */
        public Plan(final long seconds, final boolean fio, final boolean quick, final int rounds) {
            this(seconds, fio, quick, rounds, List.of(), List.of());
        }
    }

    private BenchIo() {}

    /**
     * Runs the benchmark on {@code file} ({@code sizeBytes}): io_uring, FileChannel and (when installed and not
     * {@code quick}) fio, {@code seconds} a cell; {@code quick} measures a small subset in a fraction of a second.
     * Returns 0, or 2 on a device error (one line on {@code out}). Argument parsing is the CLI's (picocli).
     */
    public static int run(final Path file, final long sizeBytes, final long seconds, final boolean fio,
                          final boolean quick, final PrintStream out) {
        return run(file, 0, sizeBytes, new Plan(seconds, fio, quick, 1), out, out);
    }

    /**
     * As above, on {@code file} from {@code baseOffset} on (kvtier's header of a claimed scratch file lies before it;
     * fio is given the same offset); a device failure is one line on {@code err}.
     */
    public static int run(final Path file, final long baseOffset, final long sizeBytes, final Plan plan,
                          final PrintStream out, final PrintStream err) {
        final boolean quick = plan.quick();
        final long size = quick ? 64 * MIB : sizeBytes;
        final List<Long> blocks = !plan.blocks().isEmpty() ? plan.blocks() : quick ? List.of(4 * KIB, 64 * KIB)
            : List.of(4 * KIB, 64 * KIB, MIB);
        final List<Integer> depths = !plan.depths().isEmpty() ? plan.depths() : quick ? List.of(1, 16)
            : List.of(1, 16, 32);
        final long cellNs = quick ? 100_000_000L : plan.seconds() * 1_000_000_000L;
        final int depthMax = depths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        final NativeMemory memory = new NativeMemory(64 * MIB);
        final DeviceFile device = new DeviceFile(file, baseOffset, size);
        final OpenResult u = Devices.open(LibcKernel.create(), device, depthMax, IoChoice.URING, memory, err);
        if (u instanceof OpenResult.Failed f) {
            memory.close();
            err.println("kvtier: benchmark needs io_uring with O_DIRECT: " + f.message());
            return 2;
        }
        final boolean withFio = plan.fio() && !quick && FioRunner.available();
        final FioRunner.Buffers fioBuffers = FioRunner.hugePagesFree(MIB * 32) ? FioRunner.Buffers.HUGE_PAGES
            : FioRunner.Buffers.SMALL_PAGES;
        try (memory; PolledDevice uring = u.orThrow();
             PolledDevice fc = FileChannelDevice.open(device, depthMax, 256, memory).orThrow()) {
            final NativeRegion buffers = memory.allocate("bench", 32 * MIB);
            final int rc = ((IoUringDevice) uring).registerBuffers(List.of(buffers.segment()));
            final IoMeter uringMeter = new IoMeter(uring, buffers, size);
            out.println(String.format(Locale.ROOT, "BenchIo: %s, %d MiB, %d ms a cell, %d round(s); kvtier: io_uring "
                + "setup flags 0x%x, registered file %s, registered buffers %s, transparent huge pages; fio: %s; "
                + "CPU affinity %s (fio inherits it)", file.toAbsolutePath(), size / MIB, cellNs / 1_000_000,
                plan.rounds(), ((IoUringDevice) uring).setupFlags(), ((IoUringDevice) uring).fixedFile() ? "yes"
                    : "no",
                rc == 0 ? "yes" : "no (" + rc + ")", withFio ? FioRunner.describe(fioBuffers,
                    FioRunner.Registration.REGISTERED) + ", and again with no registration for reference"
                    : "not run",
                ProcStat.affinity()));
            if (!precondition(uringMeter, size, out)) {
                return 2;
            }
            final IoMeter fcMeter = uringMeter.sibling(fc, buffers);
            final List<Row> rows = new ArrayList<>();
            long seed = 0xBE4C4;
            for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
                for (final long block : blocks) {
                    for (final int depth : depths) {
                        rows.add(cell(new Cell(op, block, depth, cellNs, seed), uringMeter, fcMeter,
                            withFio ? Optional.of(device) : Optional.empty(), fioBuffers, plan.rounds()));
                        seed += 16;
                    }
                }
            }
            BenchTable.print(rows, out);
            return 0;
        }
    }

    private record Cell(IoOp op, long block, int depth, long ns, long seed) {}

    /** One cell: {@code rounds} rounds of kvtier and fio (both set-ups) alternating, and one of FileChannel. */
    private static Row cell(final Cell c, final IoMeter uringMeter, final IoMeter fcMeter,
                            final Optional<DeviceFile> fio, final FioRunner.Buffers fioBuffers, final int rounds) {
        final List<Measurement> kv = new ArrayList<>();
        final List<Measurement> like = new ArrayList<>();
        final List<Measurement> plain = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            if (round % 2 == 1) {
                fio.ifPresent(d -> fioRound(d, c, fioBuffers, like, plain));
            }
            kv.add(uringMeter.measure(c.op(), c.block(), c.depth(), c.ns(), c.seed() + round));
            if (round % 2 == 0) {
                fio.ifPresent(d -> fioRound(d, c, fioBuffers, like, plain));
            }
        }
        final Measurement fc = fcMeter.measure(c.op(), c.block(), c.depth(), c.ns(), c.seed() + 15);
        return new Row(c.op(), c.block(), c.depth(), median(kv).orElseThrow(), fc, median(like), median(plain));
    }

    private static void fioRound(final DeviceFile d, final Cell c, final FioRunner.Buffers buffers,
                                 final List<Measurement> like, final List<Measurement> plain) {
        final long ms = Math.max(1, c.ns() / 1_000_000L);
        FioRunner.run(d, c.op(), c.block(), c.depth(), ms, false, buffers, FioRunner.Registration.REGISTERED)
            .ifPresent(like::add);
        FioRunner.run(d, c.op(), c.block(), c.depth(), ms, false, buffers, FioRunner.Registration.PLAIN)
            .ifPresent(plain::add);
    }

    /** The round with the median IOPS (the lower middle of an even count). */
    static Optional<Measurement> median(final List<Measurement> rounds) {
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        final List<Measurement> sorted = rounds.stream().sorted(Comparator.comparingLong(Measurement::iops)).toList();
        return Optional.of(sorted.get((sorted.size() - 1) / 2));
    }

    /** One full write pass and a read-back of sampled pages; false (with a line on {@code out}) when it failed. */
    private static boolean precondition(final IoMeter meter, final long size, final PrintStream out) {
        final long fillNs = meter.fill(MIB);
        final int bad = meter.readBack(64, 0xBE4C);
        if (bad > 0) {
            out.println("benchmark refused: " + bad + " of 64 sampled pages do not read back what the write pass put"
                + " there (reads would measure nothing)");
            return false;
        }
        out.println(String.format(Locale.ROOT, "preconditioned: all %d MiB written in this run (%.3f GB/s) and 64"
            + " sampled pages read back; every read below reads bytes this run wrote", size / MIB,
            size * 1e9 / Math.max(1, fillNs) / 1e9));
        return true;
    }
}
