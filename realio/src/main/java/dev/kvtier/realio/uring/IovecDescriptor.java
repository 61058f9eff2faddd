package dev.kvtier.realio.uring;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct iovec} (16 B), used for READV/WRITEV and for registering fixed buffers.
 *
 * <pre>
 *  0 void* iov_base    8 size_t iov_len    16
 * </pre>
 */
public final class IovecDescriptor {
    public static final int SIZE = 16;
    public static final int BASE = 0;
    public static final int LEN = 8;

    private IovecDescriptor() {}

    /** The structure as the C header declares it. */
    public static StructLayout layout() {
        return MemoryLayout.structLayout(JAVA_LONG.withName("iov_base"), JAVA_LONG.withName("iov_len"))
            .withName("iovec");
    }

    /** Throws when a constant disagrees with the declared layout. */
    public static void check() {
        final StructLayout v = layout();
        LayoutCheck.size(v, SIZE);
        LayoutCheck.offset(v, "iov_base", BASE);
        LayoutCheck.offset(v, "iov_len", LEN);
    }
}
