package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Calibrates a disk for the simulator. First a full write pass over the calibration file (preconditioning: every
 * read afterwards reads bytes this run wrote, never an unwritten extent, and sampled pages are read back to prove
 * it, or no profile is made); then random reads and writes over a matrix of block sizes and depths and over the
 * cells a run issues ({@link RunShape}: slot-sized and grouped writes, slot-sized and batched reads, at depth 1 and
 * the run's depth) with the io_uring device; then flush latency; the disk's write-back cache (drain rate and delay)
 * fitted to FLUSHes timed after write passes ({@link DrainCalibration}: the preconditioning pass among them; the
 * file is sized to what the run writes, so a full pass writes as much as the run's cold phase); then, when
 * {@link Checks#fio} asks, the profile's bandwidth cells side by side with fio on the same file ({@link SideBySide}).
 * A figure above fio's by more than
 * {@link #SUSPECT_ABOVE_FIO} that the block device's own counters do not confirm ({@link SideBySide.Witness}), a
 * figure those counters saw less of than the meter counted, or one above a limit of {@link Checks}, is suspect
 * ({@link Calibration#suspect}). fio is the yardstick when the device cannot be read; when it can, the device's
 * counters are the physical limit, and a meter above fio that they confirm is fio's shortfall, said in a note.
 *
 * <p>The profile: latencies from 4 KiB at depth 1, bandwidths from the run's largest read and write at the run's
 * depth, parallelism from IOPS(4 KiB read, depth 32) x the 4 KiB read latency. Run it as {@code kvtier calibrate}
 * ({@link CalibrationRun}).
 */
public final class DeviceCalibration {
    /** A figure more than this fraction above fio's, like with like, is suspect. */
    public static final double SUSPECT_ABOVE_FIO = 0.15;

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long SEC = 1_000_000_000L;
    private static final int READ_BACK_PAGES = 64;

    /**
     * What to measure.
     *
     * @param blockSizes   the matrix's block sizes, each a multiple of 4096; must include 4 KiB
     * @param depths       the matrix's depths; must include 1 and 32
     * @param cellNs       time per cell
     * @param fileBytes    size of the calibration file (offsets fall anywhere in it); all of it is written first
     * @param flushSamples flushes to average
     * @param drain        the write passes and timed FLUSHes the disk's write-back cache is fitted to
     * @param shape        the run whose cells are measured too, and whose largest cells give the bandwidths
     * @param runBlockMax  the largest run cell measured (a quick plan caps it), at most a quarter of the file
     */
    public record Plan(List<Long> blockSizes, List<Integer> depths, long cellNs, long fileBytes, int flushSamples,
                       DrainCalibration.Plan drain, RunShape shape, long runBlockMax) {
        public Plan {
            blockSizes = List.copyOf(blockSizes);
            depths = List.copyOf(depths);
            if (!blockSizes.contains(4 * KIB)) {
                throw new IllegalArgumentException("a plan needs 4 KiB blocks (latency, parallelism): " + blockSizes);
            }
            if (!depths.contains(1) || !depths.contains(32)) {
                throw new IllegalArgumentException("a plan needs depths 1 and 32: " + depths);
            }
            final long maxBlock = blockSizes.stream().mapToLong(Long::longValue).max().orElseThrow();
            if (cellNs <= 0 || flushSamples <= 0 || fileBytes < 4 * maxBlock || fileBytes % MIB != 0
                || runBlockMax < 4 * KIB || runBlockMax > fileBytes / 4) {
                throw new IllegalArgumentException("bad plan: cell " + cellNs + " ns, file " + fileBytes
                    + " B (a multiple of 1 MiB, at least 4 x the largest block " + maxBlock + " and 4 x the largest"
                    + " run cell " + runBlockMax + "), flushes " + flushSamples);
            }
        }

        /** The run's cells, capped at {@link #runBlockMax}. */
        public List<Cell> runCells() {
            return shape.cells(runBlockMax);
        }

        int depthMax() {
            return Stream.concat(depths.stream(), runCells().stream().map(Cell::depth)).mapToInt(Integer::intValue)
                .max().orElseThrow();
        }

        long blockMax() {
            return Stream.concat(blockSizes.stream(), runCells().stream().map(Cell::blockBytes))
                .mapToLong(Long::longValue).max().orElseThrow();
        }

        /** Buffer memory: room for the largest cell's I/Os in flight (at most 8 of them). */
        long bufferBytes() {
            long max = 64 * 4 * KIB;
            for (final Cell c : runCells()) {
                max = Math.max(max, c.blockBytes() * Math.min(8, c.depth()));
            }
            return Math.max(max, blockSizes.stream().mapToLong(Long::longValue).max().orElseThrow() * 8);
        }
    }

    /**
     * What a calibration checks besides measuring.
     *
     * @param fio                 run fio side by side on the profile's bandwidth cells (when it is installed)
     * @param repeats             side-by-side rounds
     * @param compareNs           time of each side-by-side run
     * @param maxReadBytesPerSec  a read bandwidth above this is suspect (0: no limit)
     * @param maxWriteBytesPerSec a write bandwidth above this is suspect (0: no limit)
     */
    public record Checks(boolean fio, int repeats, long compareNs, long maxReadBytesPerSec, long maxWriteBytesPerSec) {
        /** No fio and no limits. */
        public static final Checks NONE = new Checks(false, 1, 1_000_000_000L, 0, 0);

        public Checks {
            if (repeats < 1 || compareNs < 1_000_000L || maxReadBytesPerSec < 0 || maxWriteBytesPerSec < 0) {
                throw new IllegalArgumentException("bad checks: " + repeats + " rounds of " + compareNs + " ns, limits "
                    + maxReadBytesPerSec + "/" + maxWriteBytesPerSec);
            }
        }
    }

    /** The fill or its read-back failed: the file does not hold what this run wrote; no profile. */
    public static final class NotPreconditioned extends Exception {
        private static final long serialVersionUID = 1L;

        NotPreconditioned(final String message) {
            super(message);
        }
    }

    private DeviceCalibration() {}

    /** The quick plan, or the full one for a file of {@code fileBytes} (0: 1 GiB). */
    public static Plan plan(final boolean quick, final RunShape shape, final long fileBytes) {
        return quick ? quick(shape) : full(shape, fileBytes == 0 ? 1024 * MIB : fileBytes);
    }

    /**
     * 4 KiB .. 8 MiB by powers of four (and 1 MiB), depths 1 .. 64, 400 ms a cell, the run's cells; the drain fitted
     * to three full passes, five passes of up to 1 GiB with waits of 0-4 s, and two paced full passes (gaps of 0.5 and
     * 1 s).
     */
    public static Plan full(final RunShape shape, final long fileBytes) {
        return new Plan(List.of(4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB, 8 * MIB),
            List.of(1, 4, 16, 32, 64), 400_000_000L, fileBytes, 50,
            new DrainCalibration.Plan(3, Math.min(1024 * MIB, fileBytes), List.of(0L, SEC, 2 * SEC, 3 * SEC, 4 * SEC),
                List.of(SEC / 2, SEC)),
            shape, Math.min(256 * MIB, fileBytes / 4));
    }

    /**
     * The cells the profile needs and little else: 60 ms a cell, a 64 MiB file, run cells of at most 8 MiB; the drain
     * fitted to one full pass, two 16 MiB passes (no wait, 20 ms) and one paced pass (10 ms gaps).
     */
    public static Plan quick(final RunShape shape) {
        return new Plan(List.of(4 * KIB, MIB), List.of(1, 16, 32), 60_000_000L, 64 * MIB, 10,
            new DrainCalibration.Plan(1, 16 * MIB, List.of(0L, 20_000_000L), List.of(10_000_000L)), shape, 8 * MIB);
    }

    /**
     * Runs {@code plan} on {@code device} (the bytes of the file {@code target} describes: fio side by side gets the
     * same base offset, so kvtier's header before it is never written) with I/O memory from {@code memory}; logs one
     * line per cell.
     *
     * @throws NotPreconditioned when the file does not read back what the fill wrote
     */
    public static Calibration calibrate(final PolledDevice device, final NativeMemory memory, final String name,
                                        final Plan plan, final Checks checks, final DeviceFile target,
                                        final PrintStream log) throws NotPreconditioned {
        final IoMeter meter = meter(device, memory, "calibration", plan, log);
        final List<String> notes = new ArrayList<>();
        final WritePass fill = meter.pass(Math.min(4 * MIB, plan.fileBytes()), plan.fileBytes(), plan.fileBytes(),
            0);
        final long firstFlushNs = meter.flushNs();
        notes.add(precondition(meter, plan, fill.writeNs(), log));
        final DrainCalibration.Fit drain = DrainCalibration.measure(meter, plan.fileBytes(), plan.drain(), fill,
            firstFlushNs, log, notes);
        final List<Measurement> all = new ArrayList<>();
        long seed = 0x5EED;
        for (final Cell c : cells(plan)) {
            final Measurement m = meter.measure(c.op(), c.blockBytes(), c.depth(), plan.cellNs(), seed++);
            if (m.errors() > 0) {
                throw new IllegalStateException(m.errors() + " I/O errors while measuring " + m);
            }
            log.println(String.format(Locale.ROOT, "%-5s %8d B depth %2d: %8.3f GB/s %9d IOPS %9d ns", c.op(),
                c.blockBytes(), c.depth(), m.gbPerSec(), m.iops(), m.meanLatencyNs()));
            all.add(m);
        }
        final long flushNs = Math.max(1, meter.flushLatencyNs(plan.flushSamples()));
        final Cell readBw = plan.shape().readBandwidthCell(plan.runBlockMax());
        final Cell writeBw = plan.shape().writeBandwidthCell(plan.runBlockMax());
        final List<SideBySide.Comparison> compared = checks.fio() ? FioCheck.compare(device, meter, plan,
            List.of(readBw, writeBw), checks, target, notes, log) : List.of();
        notes.addAll(belowFio(compared));
        final long readBps = bandwidth(all, compared, readBw);
        final long writeBps = bandwidth(all, compared, writeBw);
        notes.add(String.format(Locale.ROOT, "bandwidths from the run's cells: %s %.3f GB/s, %s %.3f GB/s%s", readBw,
            readBps / 1e9, writeBw, writeBps / 1e9, compared.isEmpty() ? "" : " (median of the side-by-side rounds)"));
        final Measurement read4k = find(all, new Cell(IoOp.READ, 4 * KIB, 1));
        final Measurement write4k = find(all, new Cell(IoOp.WRITE, 4 * KIB, 1));
        final Measurement read32 = find(all, new Cell(IoOp.READ, 4 * KIB, 32));
        final long parallel = Math.round(read32.iops() * (double) read4k.meanLatencyNs() / 1e9);
        final DeviceProfile profile = new DeviceProfile(name, Math.max(1, read4k.meanLatencyNs()),
            Math.max(1, write4k.meanLatencyNs()), flushNs, Math.max(1, readBps), Math.max(1, writeBps),
            Math.clamp(parallel, 1, 1024), drain.bytesPerSec(), drain.delayNs());
        return new Calibration(profile, all, compared, notes, suspect(profile, compared, checks));
    }

    /**
     * A meter over the plan's span of {@code device}, its buffers ({@code name}) from {@code memory} and registered
     * with io_uring when the device is one (a refusal is logged, and the meter measures without).
     */
    static IoMeter meter(final PolledDevice device, final NativeMemory memory, final String name, final Plan plan,
                         final PrintStream log) {
        final NativeRegion buffers = memory.allocate(name, plan.bufferBytes());
        if (device instanceof IoUringDevice u) {
            final int rc = u.registerBuffers(List.of(buffers.segment()));
            if (rc < 0) {
                log.println(name + ": fixed buffers not registered (" + rc + "); measuring without");
            }
        }
        return new IoMeter(device, buffers, plan.fileBytes());
    }

    /** After the pass that wrote the whole file (in {@code fillNs}), reads sampled pages back; the note saying so. */
    private static String precondition(final IoMeter meter, final Plan plan, final long fillNs,
                                       final PrintStream log) throws NotPreconditioned {
        final int bad = meter.readBack(READ_BACK_PAGES, 0xBAC4);
        if (bad > 0) {
            throw new NotPreconditioned(bad + " of " + READ_BACK_PAGES + " sampled pages do not read back what this"
                + " run's write pass put there (a file system or device that discards writes, or reads of ranges"
                + " never written, which return zeros without touching the disk): no profile");
        }
        final String note = String.format(Locale.ROOT, "preconditioned: all %d MiB written in this run before any "
            + "read (one sequential pass, %.3f GB/s), %d sampled pages read back as written; every read cell reads "
            + "only bytes this run wrote", plan.fileBytes() / MIB, plan.fileBytes() * 1e9 / Math.max(1, fillNs) / 1e9,
            READ_BACK_PAGES);
        log.println(note);
        return note;
    }

    /** The matrix (reads, then writes), then the run's cells. */
    private static List<Cell> cells(final Plan plan) {
        final List<Cell> out = new ArrayList<>();
        for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (final long block : plan.blockSizes()) {
                for (final int depth : plan.depths()) {
                    out.add(new Cell(op, block, depth));
                }
            }
        }
        for (final Cell c : plan.runCells()) {
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static long bandwidth(final List<Measurement> all, final List<SideBySide.Comparison> compared,
                                  final Cell cell) {
        for (final SideBySide.Comparison c : compared) {
            if (c.cell().equals(cell)) {
                return c.profile().median();
            }
        }
        return find(all, cell).bytesPerSec();
    }

    /** Why the profile's figures are suspect: above fio's, like with like, or above a limit. */
    static List<String> suspect(final DeviceProfile p, final List<SideBySide.Comparison> compared,
                                final Checks checks) {
        final List<String> out = new ArrayList<>();
        for (final SideBySide.Comparison c : compared) {
            if (c.ratio() > 1 + SUSPECT_ABOVE_FIO && !c.kvtierSeen().confirms(c.kvtier())) {
                out.add(String.format(Locale.ROOT, "%s: kvtier's meter %s is %+.0f %% of fio's %s on the same "
                    + "preconditioned file and buffers (more than %+.0f %%), and %s: host cache or a sparse file?",
                    c.cell(), c.kvtier().describe(), 100 * (c.ratio() - 1), c.fio().describe(),
                    100 * SUSPECT_ABOVE_FIO, c.kvtierSeen().deviceBps().isEmpty() ? "the block device's counters"
                        + " could not be read to confirm it" : c.kvtierSeen().describe() + ", less than it"));
            }
            refuted(out, c.cell(), "kvtier's meter", c.kvtier(), c.kvtierSeen());
            if (!c.profileCompared()) {
                refuted(out, c.cell(), "kvtier's meter on huge pages (the profile's figure)", c.profile(),
                    c.profileSeen());
            }
        }
        limit(out, "read", p.readBytesPerSec(), checks.maxReadBytesPerSec());
        limit(out, "write", p.writeBytesPerSec(), checks.maxWriteBytesPerSec());
        return out;
    }

    /** A figure the block device's own counters saw less of than the meter counted is suspect, whatever fio says. */
    private static void refuted(final List<String> out, final Cell cell, final String who,
                                final SideBySide.Spread claimed, final SideBySide.Witness seen) {
        if (!seen.deviceBps().isEmpty() && !seen.confirms(claimed)) {
            out.add(String.format(Locale.ROOT, "%s: %s %s, but %s in the same runs (less than %.0f %% of it in some"
                + " round): bytes counted that never reached the device", cell, who, claimed.describe(),
                seen.describe(), 100 * SideBySide.Witness.SHARE));
        }
    }

    /**
     * Notes for figures more than {@link #SUSPECT_ABOVE_FIO} below fio's, like with like: not suspect of inflation, but
     * a profile that may understate the disk (the simulated run would be slower than the real one), so it is said.
     */
    static List<String> belowFio(final List<SideBySide.Comparison> compared) {
        final List<String> out = new ArrayList<>();
        for (final SideBySide.Comparison c : compared) {
            if (c.ratio() < 1 - SUSPECT_ABOVE_FIO) {
                out.add(String.format(Locale.ROOT, "%s: kvtier's meter %s is %+.0f %% of fio's %s on the same "
                    + "preconditioned file and buffers (more than %.0f %% below): the profile may understate the disk",
                    c.cell(), c.kvtier().describe(), 100 * (c.ratio() - 1), c.fio().describe(),
                    100 * SUSPECT_ABOVE_FIO));
            }
        }
        return out;
    }

    private static void limit(final List<String> out, final String what, final long bps, final long max) {
        if (max > 0 && bps > max) {
            out.add(String.format(Locale.ROOT, "%s bandwidth %.3f GB/s is above the limit set, %.3f GB/s", what,
                bps / 1e9, max / 1e9));
        }
    }

    static Measurement find(final List<Measurement> all, final Cell cell) {
        for (final Measurement m : all) {
            if (m.op() == cell.op() && m.blockBytes() == cell.blockBytes() && m.depth() == cell.depth()) {
                return m;
            }
        }
        throw new IllegalStateException("no measurement of " + cell);
    }
}
