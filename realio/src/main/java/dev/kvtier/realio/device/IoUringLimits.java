package dev.kvtier.realio.device;

import dev.kvtier.realio.uring.UringConstants;

/**
 * The limits of an {@link IoUringDevice}, checked when made.
 *
 * @param depth       operations at the device at once, 1..4096 (the ring has the next power of two of entries)
 * @param maxRequests requests accepted and not completed at once, at least {@code depth}, at most 65536
 * @param iovPerSqe   iovecs in one READV/WRITEV, 1..1024
 */
public record IoUringLimits(int depth, int maxRequests, int iovPerSqe) {
    public IoUringLimits {
        if (depth < 1 || depth > 4096) {
            throw new IllegalArgumentException("depth must be in [1, 4096], got " + depth);
        }
        if (maxRequests < depth || maxRequests > 65536) {
            throw new IllegalArgumentException("maxRequests must be in [depth=" + depth + ", 65536], got "
                + maxRequests);
        }
        if (iovPerSqe < 1 || iovPerSqe > UringConstants.IOV_MAX) {
            throw new IllegalArgumentException("iovPerSqe must be in [1, 1024], got " + iovPerSqe);
        }
    }

    /** {@code depth}, with at least 64 requests accepted and 64 iovecs an SQE. */
    public static IoUringLimits of(final int depth) {
        return new IoUringLimits(depth, Math.max(64, depth), 64);
    }
}
