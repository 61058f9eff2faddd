package dev.kvtier.lab.signoff;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How much of a real run the machine's other load took: the run's thread's time on a CPU and its time runnable but
 * waiting for one ({@code /proc/thread-self/schedstat}), against the run's wall time. A real run does all its work on
 * one thread, so time waiting for a CPU is time the simulator cannot know about: on a shared machine (this project's
 * VM has 2 cores and several builds) it can double a phase.
 *
 * @param seed     the run's seed
 * @param wallNs   the run's wall time, set-up included
 * @param cpuNs    its thread's time on a CPU
 * @param waitNs   its thread's time runnable, waiting for a CPU
 * @param settleNs how long the FLUSH that settled the disk before the run took (what earlier writes left in the
 *                 disk's volatile cache: the simulated run starts with an empty one), or -1 when the disk was not
 *                 settled (its file did not exist yet, or the FLUSH failed)
 */
public record CpuShare(long seed, long wallNs, long cpuNs, long waitNs, long settleNs) {
    /** A run that waited more than this fraction of its wall time for a CPU ran on a busy machine. */
    public static final double BUSY = 0.10;

    /** The calling thread's counters now: {@code [cpuNs, waitNs]}, or {@code [-1, -1]} where the kernel has none. */
    public static long[] now() {
        try {
            final String[] f = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split("\\s+", -1);
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
        } catch (final IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    /** Between two readings of {@link #now}; -1 figures when the kernel had none. */
    public static CpuShare between(final long seed, final long wallNs, final long[] before, final long[] after,
                                   final long settleNs) {
        final boolean known = before[0] >= 0 && after[0] >= 0;
        return new CpuShare(seed, wallNs, known ? after[0] - before[0] : -1, known ? after[1] - before[1] : -1,
            settleNs);
    }

    /** Whether the run waited more than {@link #BUSY} of its wall time for a CPU. */
    public boolean busy() {
        return waitNs > BUSY * wallNs;
    }

    /**
     * For example {@code seed 2: 6.1 s wall, 2.3 s on a CPU, 1.9 s waiting for one (31 %); disk settled first (FLUSH
     * 412 ms)}.
     */
    public String describe() {
        final String settled = settleNs < 0 ? ""
            : String.format(Locale.ROOT, "; disk settled first (FLUSH %.0f ms)", settleNs / 1e6);
        if (cpuNs < 0) {
            return "seed " + seed + ": no scheduler statistics on this kernel" + settled;
        }
        return String.format(Locale.ROOT, "seed %d: %.1f s wall, %.1f s on a CPU, %.1f s waiting for one (%.0f %%)",
            seed, wallNs / 1e9, cpuNs / 1e9, waitNs / 1e9, 100.0 * waitNs / Math.max(1, wallNs)) + settled;
    }
}
