package dev.kvtier.lab.run;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The bytes the calling thread has allocated on the heap so far (HotSpot's per-thread counter, through
 * {@code com.sun.management.ThreadMXBean}): a simulated run allocates on the thread that runs it, so the difference
 * before and after a run is what the run allocated. Read in cli only: nothing in core or sim reads the JVM's state.
 */
public final class ThreadAllocation {
    private ThreadAllocation() {}

    /** Bytes allocated by the calling thread since it started, or -1 where the JVM does not count them. */
    public static long bytesSoFar() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
            && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    /**
     * "allocated N MB (B bytes/event)" for a run that allocated {@code bytes} over {@code events} events, or a line
     * saying the JVM does not count them ({@code bytes} negative).
     */
    public static String describe(final long bytes, final long events) {
        if (bytes < 0) {
            return "allocated: not counted by this JVM";
        }
        return String.format(Locale.ROOT, "allocated %.1f MB (%.0f bytes/event)", bytes / 1e6,
            (double) bytes / Math.max(1, events));
    }
}
