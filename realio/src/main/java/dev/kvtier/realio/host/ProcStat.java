package dev.kvtier.realio.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What the run conditions, the benchmarks and the fio check read from Linux's {@code /proc} and {@code /sys}; every
 * reader answers a neutral value ({@code -1}, an empty array, {@code unknown}) where the file is missing or
 * unreadable, so a job never fails for lack of them.
 */
public final class ProcStat {
    /** Linux's USER_HZ, the unit of {@code /proc/stat} and {@code /proc/self/stat}. */
    public static final double TICKS_PER_SECOND = 100;

    private ProcStat() {}

    /**
     * The machine's {@code cpu} line of {@code /proc/stat}: {@code [total, busy, steal, 0]}, where busy is user,
     * nice, system, irq and softirq (not idle, iowait or steal); empty when unreadable.
     */
    public static long[] cpuTicks() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (line.startsWith("cpu ")) {
                    final String[] f = line.trim().split("\\s+", -1);
                    final long[] v = new long[8];
                    for (int i = 0; i < 8; i++) {
                        v[i] = Long.parseLong(f[i + 1]);
                    }
                    long total = 0;
                    for (final long x : v) {
                        total += x;
                    }
                    return new long[] {total, v[0] + v[1] + v[2] + v[5] + v[6], v[7], 0};
                }
            }
        } catch (final IOException | RuntimeException e) {
            return new long[0];
        }
        return new long[0];
    }

    /** This process's and its waited-for children's user and system ticks, or -1. */
    public static long ownTicks() {
        try {
            final String stat = Files.readString(Path.of("/proc/self/stat"));
            final String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+", -1);
            // After the command: state is field 3, utime 14, stime 15, cutime 16, cstime 17 (1-based, whole line).
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPUs online ({@code /sys/devices/system/cpu/online}), else the JVM's count. */
    public static int cpusOnline() {
        try {
            final int n = count(Files.readString(Path.of("/sys/devices/system/cpu/online")).trim());
            return n > 0 ? n : Runtime.getRuntime().availableProcessors();
        } catch (final IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** How many CPUs a list such as {@code 0-3,6} names (0 when it cannot be read). */
    public static int count(final String list) {
        int n = 0;
        try {
            for (final String part : list.split(",", -1)) {
                final String[] ends = part.split("-", -1);
                n += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
            }
        } catch (final RuntimeException e) {
            return 0;
        }
        return n;
    }

    /**
     * The number a {@code /proc/meminfo} line gives for {@code key} (kB for sizes, a count for {@code HugePages_*}),
     * or -1 when there is none.
     */
    public static long meminfo(final String key) {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                final String[] f = line.trim().split("\\s+", -1);
                if (f[0].equals(key + ":")) {
                    return Long.parseLong(f[1]);
                }
            }
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** {@code Cpus_allowed_list} of {@code /proc/self/status}, or {@code unknown}. */
    public static String affinity() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (final IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }

    /** The first {@code model name} of {@code /proc/cpuinfo}, or {@code unknown}. */
    public static String cpuModel() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim().replace('"', '\'');
                }
            }
        } catch (final IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }

    /**
     * The write cache of the block device holding {@code file} ({@code queue/write_cache} under {@code
     * /sys/dev/block/MAJOR:MINOR}, or its parent's for a partition), or {@code unknown}.
     */
    public static String writeCache(final Path file) {
        try {
            Path sys = blockDir(file);
            for (int up = 0; up < 2 && sys != null; up++, sys = sys.getParent()) {
                final Path cache = sys.resolve("queue/write_cache");
                if (Files.isReadable(cache)) {
                    return Files.readString(cache).trim();
                }
            }
        } catch (final IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }

    /**
     * The bytes the block device under {@code file} has read and written since boot, {@code [read, written]}, from its
     * own counters ({@code stat} under {@code /sys/dev/block/MAJOR:MINOR}: sectors of 512 bytes, whatever the device's
     * sector size); for a block device, its own. Empty when there is none (tmpfs, overlay) or it cannot be read. The
     * counters are the whole device's: other processes' I/O adds to them, none of it is taken away.
     */
    public static long[] blockBytes(final Path file) {
        try {
            final Path sys = blockDir(file);
            if (sys == null) {
                return new long[0];
            }
            final String[] f = Files.readString(sys.resolve("stat")).trim().split("\\s+", -1);
            return new long[] {Long.parseLong(f[2]) * 512, Long.parseLong(f[6]) * 512};
        } catch (final IOException | RuntimeException e) {
            return new long[0];
        }
    }

    /**
     * {@code /sys/dev/block/MAJOR:MINOR} of the block device holding {@code file} (of {@code file} itself when it is
     * one; the nearest existing parent's when it does not exist yet), or null.
     */
    private static Path blockDir(final Path file) throws IOException {
        if (file == null) {
            return null;
        }
        Path p = file.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return null;
        }
        final boolean device = Files.readAttributes(p, BasicFileAttributes.class).isOther();
        final long dev = ((Number) Files.getAttribute(p, device ? "unix:rdev" : "unix:dev")).longValue();
        final long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        final long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        final Path sys = Path.of("/sys/dev/block/" + major + ":" + minor);
        return Files.exists(sys) ? sys.toRealPath() : null;
    }
}
