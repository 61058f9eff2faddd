package dev.kvtier.realio.run;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Where a real run's loop thread spent the run: on a CPU doing byte work (copies, checksums, fills and checks, which
 * {@link dev.kvtier.realio.memory.ByteWork} times), on a CPU doing everything else (the core's and the engine's logic,
 * the observers, the system calls), or off a CPU (waiting for a completion, for the engine's next step, or for a CPU).
 * The simulator charges the byte work at the host profile's bandwidths and the rest per event; this record is what
 * the run paid, over the same window as its byte work (the workload's start to the end of its shutdown).
 *
 * @param wallNs     the window's wall time
 * @param cpuNs      the loop thread's time on a CPU in the window, or -1 when the JVM cannot tell
 * @param byteWorkNs the byte work's wall time in the window
 * @param events     the events the run emitted
 */
public record LoopTime(long wallNs, long cpuNs, long byteWorkNs, long events) {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The calling thread's time on a CPU so far, or -1 when the JVM does not measure it. */
    public static long threadCpuNs() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    public boolean known() {
        return cpuNs >= 0;
    }

    /** Time on a CPU that was not byte work (0 when unknown or when the timers disagree by a little). */
    public long otherNs() {
        return known() ? Math.max(0, cpuNs - byteWorkNs) : 0;
    }

    /** Wall time off a CPU. */
    public long idleNs() {
        return known() ? Math.max(0, wallNs - cpuNs) : 0;
    }

    /** The other work per event, in nanoseconds. */
    public double otherPerEventNs() {
        return events == 0 ? 0 : otherNs() / (double) events;
    }

    /** The sum of two windows (several runs' loops as one). */
    public LoopTime plus(final LoopTime o) {
        return new LoopTime(wallNs + o.wallNs, known() && o.known() ? cpuNs + o.cpuNs : -1,
            byteWorkNs + o.byteWorkNs, events + o.events);
    }

    /**
     * For example {@code loop thread: 12.00 s, 10.34 s on a CPU (byte work 10.03 s, other work 0.31 s: 64.0 us an
     * event over 4,866 events), 1.66 s off a CPU}.
     */
    public String describe() {
        if (!known()) {
            return String.format(Locale.ROOT, "loop thread: %.2f s, byte work %.2f s; its time on a CPU is unknown",
                wallNs / 1e9, byteWorkNs / 1e9);
        }
        return String.format(Locale.ROOT, "loop thread: %.2f s, %.2f s on a CPU (byte work %.2f s, other work %.2f s:"
            + " %.1f us an event over %,d events), %.2f s off a CPU", wallNs / 1e9, cpuNs / 1e9, byteWorkNs / 1e9,
            otherNs() / 1e9, otherPerEventNs() / 1e3, events, idleNs() / 1e9);
    }
}
