package dev.kvtier.realio.calibrate;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.device.IoUringLimits;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Calibrates a disk for the simulator: fills a file (so reads hit written extents, not holes), measures random
 * reads and writes over a matrix of block sizes and depths with the io_uring device, measures flush latency, and
 * derives a profile: latencies from 4 KiB at depth 1, bandwidths from 1 MiB at depth 16, parallelism from
 * IOPS(4 KiB read, depth 32) x the 4 KiB read latency. The full plan takes about half a minute; {@code --quick}
 * about a second.
 *
 * <p>Run it as {@code kvtier calibrate}.
 */
public final class DeviceCalibration {
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    /**
     * What to measure.
     *
     * @param blockSizes   block sizes, each a multiple of 4096; must include 4 KiB and 1 MiB
     * @param depths       depths; must include 1, 16 and 32
     * @param cellNs       time per cell
     * @param fileBytes    size of the calibration file (offsets fall anywhere in it)
     * @param flushSamples flushes to average
     */
    public record Plan(List<Long> blockSizes, List<Integer> depths, long cellNs, long fileBytes, int flushSamples) {
        public Plan {
            blockSizes = List.copyOf(blockSizes);
            depths = List.copyOf(depths);
            if (!blockSizes.contains(4 * KIB) || !blockSizes.contains(MIB)) {
                throw new IllegalArgumentException("a plan needs 4 KiB and 1 MiB blocks: " + blockSizes);
            }
            if (!depths.contains(1) || !depths.contains(16) || !depths.contains(32)) {
                throw new IllegalArgumentException("a plan needs depths 1, 16 and 32: " + depths);
            }
            final long maxBlock = blockSizes.stream().mapToLong(Long::longValue).max().orElseThrow();
            if (cellNs <= 0 || flushSamples <= 0 || fileBytes < 4 * maxBlock || fileBytes % MIB != 0) {
                throw new IllegalArgumentException("bad plan: cell " + cellNs + " ns, file " + fileBytes
                    + " B (a multiple of 1 MiB, at least 4 x the largest block " + maxBlock + "), flushes "
                    + flushSamples);
            }
        }

        int depthMax() {
            return depths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        }

        long blockMax() {
            return blockSizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        }
    }

    private DeviceCalibration() {}

    /** 4 KiB .. 8 MiB by powers of four (and 1 MiB), depths 1 .. 64, 400 ms a cell, a 1 GiB file. */
    public static Plan full() {
        return new Plan(List.of(4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB, 8 * MIB),
            List.of(1, 4, 16, 32, 64), 400_000_000L, 1024 * MIB, 50);
    }

    /** The cells the profile needs and little else: 60 ms a cell, a 64 MiB file. */
    public static Plan quick() {
        return new Plan(List.of(4 * KIB, MIB), List.of(1, 16, 32), 60_000_000L, 64 * MIB, 10);
    }

    /** Runs {@code plan} on {@code device} with I/O memory from {@code memory}; logs one line per cell. */
    public static Calibration calibrate(final PolledDevice device, final NativeMemory memory,
                                        final String name, final Plan plan, final PrintStream log) {
        final NativeRegion buffers = memory.allocate("calibration", Math.max(plan.blockMax() * 8, 64 * 4 * KIB));
        if (device instanceof IoUringDevice u) {
            final int rc = u.registerBuffers(List.of(buffers.segment()));
            if (rc < 0) {
                log.println("calibration: fixed buffers not registered (" + rc + "); measuring without");
            }
        }
        final IoMeter meter = new IoMeter(device, buffers, plan.fileBytes());
        meter.fill(Math.min(MIB, plan.fileBytes()));
        final List<Measurement> all = new ArrayList<>();
        long seed = 0x5EED;
        for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (final long block : plan.blockSizes()) {
                for (final int depth : plan.depths()) {
                    final Measurement m = meter.measure(op, block, depth, plan.cellNs(), seed++);
                    if (m.errors() > 0) {
                        throw new IllegalStateException(m.errors() + " I/O errors while measuring " + m);
                    }
                    log.println(String.format(Locale.ROOT, "%-5s %8d B depth %2d: %8.3f GB/s %9d IOPS %9d ns",
                        op, block, depth, m.gbPerSec(), m.iops(), m.meanLatencyNs()));
                    all.add(m);
                }
            }
        }
        final long flushNs = Math.max(1, meter.flushLatencyNs(plan.flushSamples()));
        final Measurement read4k = find(all, IoOp.READ, 4 * KIB, 1);
        final Measurement write4k = find(all, IoOp.WRITE, 4 * KIB, 1);
        final Measurement read32 = find(all, IoOp.READ, 4 * KIB, 32);
        final long parallel = Math.round(read32.iops() * (double) read4k.meanLatencyNs() / 1e9);
        return new Calibration(new DeviceProfile(name, Math.max(1, read4k.meanLatencyNs()),
            Math.max(1, write4k.meanLatencyNs()), flushNs, find(all, IoOp.READ, MIB, 16).bytesPerSec(),
            find(all, IoOp.WRITE, MIB, 16).bytesPerSec(), Math.clamp(parallel, 1, 1024)), all);
    }

    private static Measurement find(final List<Measurement> all, final IoOp op, final long block, final int depth) {
        for (final Measurement m : all) {
            if (m.op() == op && m.blockBytes() == block && m.depth() == depth) {
                return m;
            }
        }
        throw new IllegalStateException("no measurement of " + op + " " + block + " B at depth " + depth);
    }

    /**
     * Calibrates {@code file} and writes the profile to {@code profile}: 0 on success, 2 on a device or write
     * error (with one line on {@code out}). Argument parsing is the CLI's ({@code kvtier calibrate}).
     */
    public static int run(final Path file, final Path profile, final String name, final boolean quick,
                          final PrintStream out) {
        return run(file, 0, profile, name, quick, out, out);
    }

    /**
     * As above, measuring {@code file} from {@code baseOffset} on (kvtier's header of a claimed scratch file lies
     * before it). The profile is written whole or not at all ({@link OutputFile}); a failure is one line on
     * {@code err}.
     */
    public static int run(final Path file, final long baseOffset, final Path profile, final String name,
                          final boolean quick, final PrintStream out, final PrintStream err) {
        final Plan plan = quick ? quick() : full();
        final NativeMemory memory = new NativeMemory(plan.blockMax() * 8 + 64 * MIB);
        final OpenResult opened = IoUringDevice.open(LibcKernel.create(), new DeviceFile(file, baseOffset,
            plan.fileBytes()), IoUringLimits.of(plan.depthMax()), memory);
        if (opened instanceof OpenResult.Failed f) {
            memory.close();
            err.println("kvtier: calibration needs io_uring with O_DIRECT: " + f.message());
            return 2;
        }
        try (memory; PolledDevice device = opened.orThrow()) {
            final Calibration calibration = calibrate(device, memory, name, plan, out);
            final DeviceProfile p = calibration.profile();
            final String toml = ProfileToml.write(calibration, ("kvtier device profile of " + file.toAbsolutePath()
                + " (io_uring, O_DIRECT, " + (quick ? "quick" : "full") + " plan)").replace('\n', ' ')
                .replace('\r', ' '));
            OutputFile.writeString(profile, toml);
            out.println("profile " + name + ": read " + p.readLatencyNs() + " ns, write " + p.writeLatencyNs()
                + " ns, flush " + p.flushLatencyNs() + " ns, " + p.readBytesPerSec() + " B/s read, "
                + p.writeBytesPerSec() + " B/s write, parallelism " + p.parallelism() + " -> " + profile);
            return 0;
        } catch (final IOException e) {
            err.println("kvtier: " + OutputFile.describe(profile, e));
            return 2;
        }
    }
}
