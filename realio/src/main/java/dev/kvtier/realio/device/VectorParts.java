package dev.kvtier.realio.device;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.realio.uring.IoUring;
import dev.kvtier.realio.uring.IovecDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The io_uring device's iovec area and how a vectored request is cut into READV/WRITEV parts. The area holds
 * {@code iovPerSqe} iovecs for each SQ position, allocated with the ring; the iovecs of the SQE at position
 * {@code i} live in block {@code i} until the kernel has consumed that SQE (IORING_FEAT_SUBMIT_STABLE), so a block
 * is reused only when its position is. A part takes the request's segments from where the previous part stopped,
 * merges a segment that starts where the previous one ended in memory into one iovec, and stops at
 * {@code iovPerSqe} iovecs or {@link IoUringDevice#PART_BYTES_MAX} bytes.
 */
final class VectorParts {
    private final MemorySegment iovecs;
    private final int iovPerSqe;
    private final DeviceGuard guard;

    /** An area for every SQ position of {@code ring}; regions are resolved through {@code guard}. */
    VectorParts(final IoUring ring, final int iovPerSqe, final DeviceGuard guard) {
        this.iovPerSqe = iovPerSqe;
        this.guard = guard;
        this.iovecs = ring.allocate((long) ring.sqEntries() * iovPerSqe * IovecDescriptor.SIZE, 4096);
    }

    /** The native address of the iovec block of SQ position {@code ringIndex}. */
    long address(final int ringIndex) {
        return iovecs.address() + blockOffset(ringIndex);
    }

    /**
     * Writes the next part of {@code request} (in {@code entry}) into the block of SQ position {@code ringIndex} and
     * advances the entry's segment, in-segment and file cursors past it. Returns the part's iovec count; its bytes are
     * how far the entry's file cursor moved.
     */
    int fill(final int ringIndex, final RequestTable requests, final int entry, final IoRequest request) {
        final List<IoSegment> segs = request.segments();
        final long iovBase = blockOffset(ringIndex);
        int seg = requests.nextSegment(entry);
        long segDone = requests.segmentDone(entry);
        int count = 0;
        long partBytes = 0;
        long lastEnd = -1;
        while (seg < segs.size()) {
            final IoSegment s = segs.get(seg);
            final long addr = guard.region(s).address(s.regionOffset()) + segDone;
            final long take = Math.min(s.lengthBytes() - segDone, IoUringDevice.PART_BYTES_MAX - partBytes);
            if (take == 0) {
                break;
            }
            if (addr == lastEnd) {
                final long at = iovBase + (long) (count - 1) * IovecDescriptor.SIZE + IovecDescriptor.LEN;
                iovecs.set(JAVA_LONG, at, iovecs.get(JAVA_LONG, at) + take);
            } else if (count == iovPerSqe) {
                break;
            } else {
                final long at = iovBase + (long) count * IovecDescriptor.SIZE;
                iovecs.set(JAVA_LONG, at + IovecDescriptor.BASE, addr);
                iovecs.set(JAVA_LONG, at + IovecDescriptor.LEN, take);
                count++;
            }
            lastEnd = addr + take;
            partBytes += take;
            segDone += take;
            if (segDone == s.lengthBytes()) {
                seg++;
                segDone = 0;
            }
        }
        requests.advance(entry, seg, segDone, requests.cursor(entry) + partBytes);
        return count;
    }

    private long blockOffset(final int ringIndex) {
        return (long) ringIndex * iovPerSqe * IovecDescriptor.SIZE;
    }
}
