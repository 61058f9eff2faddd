package dev.kvtier.realio.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct io_uring_getevents_arg} (24 B), passed with IORING_ENTER_EXT_ARG to wait with a timeout, and the
 * {@code struct __kernel_timespec} (16 B) its {@code ts} field points to. realio keeps both in one 40-byte block:
 * the timespec right after the argument.
 *
 * <pre>
 *  0 u64 sigmask   8 u32 sigmask_sz   12 u32 min_wait_usec   16 u64 ts (address)   24
 * __kernel_timespec:  0 s64 tv_sec   8 s64 tv_nsec   16
 * </pre>
 */
public final class GeteventsArgDescriptor {
    public static final int SIZE = 24;
    public static final int SIGMASK = 0;
    public static final int SIGMASK_SZ = 8;
    public static final int MIN_WAIT_USEC = 12;
    public static final int TS = 16;
    public static final int TIMESPEC_SIZE = 16;
    public static final int TV_SEC = 0;
    public static final int TV_NSEC = 8;
    /** Where realio puts the timespec in its block. */
    public static final int BLOCK_TIMESPEC = SIZE;
    public static final int BLOCK_SIZE = SIZE + TIMESPEC_SIZE;

    private GeteventsArgDescriptor() {}

    /** The argument as the kernel header declares it. */
    public static StructLayout layout() {
        return MemoryLayout.structLayout(JAVA_LONG.withName("sigmask"), JAVA_INT.withName("sigmask_sz"),
            JAVA_INT.withName("min_wait_usec"), JAVA_LONG.withName("ts")).withName("io_uring_getevents_arg");
    }

    /** The timespec as the kernel header declares it. */
    public static StructLayout timespec() {
        return MemoryLayout.structLayout(JAVA_LONG.withName("tv_sec"), JAVA_LONG.withName("tv_nsec"))
            .withName("__kernel_timespec");
    }

    /** Throws when a constant disagrees with the declared layouts. */
    public static void check() {
        final StructLayout a = layout();
        LayoutCheck.size(a, SIZE);
        LayoutCheck.offset(a, "sigmask", SIGMASK);
        LayoutCheck.offset(a, "sigmask_sz", SIGMASK_SZ);
        LayoutCheck.offset(a, "min_wait_usec", MIN_WAIT_USEC);
        LayoutCheck.offset(a, "ts", TS);
        final StructLayout t = timespec();
        LayoutCheck.size(t, TIMESPEC_SIZE);
        LayoutCheck.offset(t, "tv_sec", TV_SEC);
        LayoutCheck.offset(t, "tv_nsec", TV_NSEC);
    }
}
