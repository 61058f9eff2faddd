package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.host.ProcStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs fio for one cell (reads or writes of one block size at one depth, O_DIRECT, ioengine io_uring, one job, time
 * based) on an existing file and reads bandwidth and IOPS from its JSON output. fio works on the bytes a
 * {@link DeviceFile} describes: {@code --offset=} its base offset and {@code --size=} its size, so kvtier's header at
 * the start of a file kvtier created is never written.
 *
 * <p>fio's I/O buffers are plain {@code malloc} memory (4 KiB pages) unless it is told to use huge pages. That
 * matters on a virtual disk: on this project's VM (virtio-blk, at most 254 segments a request) a 1 MiB read in 4 KiB
 * pages is 256 segments and costs about 2.5 times what it costs from huge pages (fio 1.0 GB/s with its default
 * buffers, 2.6 to 3.6 GB/s with {@code --mem=shmhuge}; kvtier's meter, whose memory is transparent huge pages, 2.4
 * to 2.7 GB/s and 1.0 to 1.4 GB/s from 4 KiB pages). {@link Buffers} says which kind to ask for, so a comparison
 * compares like with like.
 *
 * <p>kvtier's devices register their file and their I/O memory with io_uring (IOSQE_FIXED_FILE, READ_FIXED and
 * WRITE_FIXED), which saves the kernel a file lookup and a page pinning per I/O. fio does neither unless told: with the
 * other core busy, fio on the same file read 1.4 to 1.5 times faster with {@code --fixedbufs --registerfiles} than
 * without. So fio runs {@link Registration#REGISTERED} unless asked otherwise, and a report says which. fio inherits
 * this process's CPU affinity, so a run under {@code taskset} pins both sides alike.
 */
public final class FioRunner {
    private static final JsonMapper JSON = new JsonMapper();

    /** What memory fio's I/O buffers come from. */
    public enum Buffers {
        /** fio's default: malloc, 4 KiB pages. */
        SMALL_PAGES,
        /** {@code --mem=shmhuge}: SysV shared memory in huge pages (needs {@code vm.nr_hugepages} reserved). */
        HUGE_PAGES
    }

    /** Whether fio registers its file and buffers with io_uring, as kvtier's devices do. */
    public enum Registration {
        /** {@code --fixedbufs --registerfiles}: like kvtier on registered buffers. */
        REGISTERED,
        /** {@code --registerfiles} only: like kvtier on buffers it did not register. */
        FILE_ONLY,
        /** fio's default: neither. */
        PLAIN
    }

    private FioRunner() {}

    /** How fio is set up, in words: {@code io_uring, registered file and buffers, huge-page buffers}. */
    public static String describe(final Buffers buffers, final Registration registration) {
        return "ioengine=io_uring, O_DIRECT, " + switch (registration) {
            case REGISTERED -> "registered file and buffers (--fixedbufs --registerfiles)";
            case FILE_ONLY -> "registered file, unregistered buffers (--registerfiles)";
            case PLAIN -> "no registration";
        } + ", "
            + (buffers == Buffers.HUGE_PAGES ? "huge-page buffers (--mem=shmhuge)" : "4 KiB-page buffers (malloc)");
    }

    /** True when {@code fio --version} runs. */
    public static boolean available() {
        try {
            final Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (final IOException e) {
            return false;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether {@code bytes} of huge pages are free for fio's buffers ({@code HugePages_Free} x {@code Hugepagesize}
     * in /proc/meminfo, with one huge page to spare for alignment).
     */
    public static boolean hugePagesFree(final long bytes) {
        final long free = ProcStat.meminfo("HugePages_Free");
        final long size = ProcStat.meminfo("Hugepagesize") * 1024;
        return size > 0 && free * size >= bytes + size;
    }

    /** One random-offset cell of whole seconds, or empty (with the reason on stderr) when fio fails. */
    public static Optional<Measurement> run(final DeviceFile device, final IoOp op, final long block,
                                            final int depth, final long seconds) {
        return run(device, op, block, depth, seconds * 1000, false, Buffers.SMALL_PAGES);
    }

    /** One cell, sequential or at random offsets, or empty (with the reason on stderr) when fio fails. */
    public static Optional<Measurement> run(final DeviceFile device, final IoOp op, final long block,
                                            final int depth, final long millis, final boolean sequential,
                                            final Buffers buffers) {
        return run(device, op, block, depth, millis, sequential, buffers, Registration.REGISTERED);
    }

    /** One cell with fio registered or not, or empty (with the reason on stderr) when fio fails. */
    public static Optional<Measurement> run(final DeviceFile device, final IoOp op, final long block,
                                            final int depth, final long millis, final boolean sequential,
                                            final Buffers buffers, final Registration registration) {
        final List<String> cmd = command(device, op, block, depth, millis, sequential, buffers, registration);
        try {
            final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(millis / 1000 + 60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                System.err.println("fio failed for " + op + " " + block + " B depth " + depth + ": " + cmd);
                return Optional.empty();
            }
            return Optional.of(parse(json, op, block, depth));
        } catch (final IOException e) {
            System.err.println("fio did not run: " + e.getMessage());
            return Optional.empty();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The fio command line for one cell: {@code --offset} the device's base offset, {@code --size} its size. */
    static List<String> command(final DeviceFile device, final IoOp op, final long block,
                                final int depth, final long millis, final boolean sequential, final Buffers buffers) {
        return command(device, op, block, depth, millis, sequential, buffers, Registration.REGISTERED);
    }

    /** The fio command line, registered or not. */
    static List<String> command(final DeviceFile device, final IoOp op, final long block, final int depth,
                                final long millis, final boolean sequential, final Buffers buffers,
                                final Registration registration) {
        if (op == IoOp.FLUSH || millis <= 0) {
            throw new IllegalArgumentException("fio measures reads and writes for a positive time, not " + op + " for "
                + millis + " ms");
        }
        final String rw = (sequential ? "" : "rand") + op.name().toLowerCase(Locale.ROOT);
        final List<String> cmd = new ArrayList<>(List.of("fio", "--name=kvtier", "--filename=" + device.path(),
            "--offset=" + device.baseOffset(), "--size=" + device.sizeBytes(), "--direct=1", "--ioengine=io_uring",
            "--rw=" + rw, "--bs=" + block,
            "--iodepth=" + depth, "--runtime=" + millis + "ms", "--time_based", "--numjobs=1", "--norandommap",
            "--randrepeat=0", "--output-format=json"));
        if (buffers == Buffers.HUGE_PAGES) {
            cmd.add("--mem=shmhuge");
        }
        if (registration == Registration.REGISTERED) {
            cmd.add("--fixedbufs");
        }
        if (registration != Registration.PLAIN) {
            cmd.add("--registerfiles");
        }
        return cmd;
    }

    /**
     * Reads the {@code read} or {@code write} section of fio's JSON output (jobs[0]), and its CPU time per I/O: the
     * job's user and system CPU (percentages of its run time) over the I/Os it completed.
     */
    static Measurement parse(final String json, final IoOp op, final long block, final int depth) {
        final JsonNode job = JSON.readTree(json).path("jobs").path(0);
        final JsonNode section = job.path(op.name().toLowerCase(Locale.ROOT));
        if (!section.has("bw_bytes") || !section.has("iops")) {
            throw new IllegalArgumentException("no " + op + " bw_bytes/iops in fio output");
        }
        final long meanLatNs = (long) section.path("lat_ns").path("mean").asDouble(0);
        final long ios = (long) section.get("iops").asDouble();
        final long total = section.path("total_ios").asLong(0);
        final double cpuShare = (job.path("usr_cpu").asDouble(-1) + job.path("sys_cpu").asDouble(-1)) / 100;
        final long runtimeMs = job.path("job_runtime").asLong(0);
        final long cpuPerIo = total > 0 && runtimeMs > 0 && cpuShare >= 0
            ? (long) (cpuShare * runtimeMs * 1e6 / total) : -1;
        return new Measurement(op, block, depth, section.get("bw_bytes").asLong(), ios, meanLatNs, ios, 0, cpuPerIo);
    }
}
