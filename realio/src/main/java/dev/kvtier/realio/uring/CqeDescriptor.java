package dev.kvtier.realio.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct io_uring_cqe}, one completion queue entry (16 B; realio does not set up CQE32).
 *
 * <pre>
 *  0 u64 user_data    8 s32 res (bytes, or -errno)    12 u32 flags    16
 * </pre>
 */
public final class CqeDescriptor {
    public static final int SIZE = 16;
    public static final int USER_DATA = 0;
    public static final int RES = 8;
    public static final int FLAGS = 12;

    private CqeDescriptor() {}

    /** The structure as the kernel header declares it. */
    public static StructLayout layout() {
        return MemoryLayout.structLayout(JAVA_LONG.withName("user_data"), JAVA_INT.withName("res"),
            JAVA_INT.withName("flags")).withName("io_uring_cqe");
    }

    /** Throws when a constant disagrees with the declared layout. */
    public static void check() {
        final StructLayout c = layout();
        LayoutCheck.size(c, SIZE);
        LayoutCheck.offset(c, "user_data", USER_DATA);
        LayoutCheck.offset(c, "res", RES);
        LayoutCheck.offset(c, "flags", FLAGS);
    }
}
