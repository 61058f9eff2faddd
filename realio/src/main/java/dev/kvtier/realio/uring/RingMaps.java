package dev.kvtier.realio.uring;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.lang.foreign.MemorySegment;

/**
 * The mmapped regions of a ring: the SQ ring, the CQ ring (the same mapping as the SQ ring when the kernel has
 * IORING_FEAT_SINGLE_MMAP) and the SQE array. Each segment is a global view of its mapping sized to it.
 *
 * @param sqRing    SQ ring mapping (head, tail, mask, flags, index array)
 * @param cqRing    CQ ring mapping (head, tail, mask, CQE array); may equal {@code sqRing}
 * @param sqes      SQE array, {@code sqEntries x 64} bytes
 * @param shared    true when the two rings share one mapping
 */
record RingMaps(MemorySegment sqRing, MemorySegment cqRing, MemorySegment sqes,
                boolean shared) implements UringSetup.Mapping {

    /** Unmaps every region once; throws (a bug) if munmap fails. */
    void unmap(final Kernel kernel) {
        check(kernel.munmap(sqes.address(), sqes.byteSize()), "SQE array");
        check(kernel.munmap(sqRing.address(), sqRing.byteSize()), "SQ ring");
        if (!shared) {
            check(kernel.munmap(cqRing.address(), cqRing.byteSize()), "CQ ring");
        }
    }

    private static void check(final int rc, final String what) {
        if (rc < 0) {
            throw new IllegalStateException("munmap of the " + what + " failed: " + Errno.ofResult(rc));
        }
    }
}
