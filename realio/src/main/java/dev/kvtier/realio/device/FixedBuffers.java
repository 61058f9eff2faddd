package dev.kvtier.realio.device;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.kvtier.realio.uring.IoUring;
import dev.kvtier.realio.uring.IovecDescriptor;
import dev.kvtier.realio.uring.UringConstants;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The fixed-buffer table of one ring: which address ranges are registered, at which index. A segment larger than
 * the kernel's 1 GiB per-buffer limit is registered as several consecutive entries. Lookup is a linear scan; the
 * table holds a handful of entries (the L1 pool and staging regions).
 */
final class FixedBuffers {
    /** Registered entries at most (the kernel allows 16384; realio registers a few regions). */
    static final int ENTRIES_MAX = 256;

    private final long[] base = new long[ENTRIES_MAX];
    private final long[] end = new long[ENTRIES_MAX];
    private final MemorySegment iovecs;
    private int count;

    FixedBuffers(final IoUring ring) {
        this.iovecs = ring.allocate((long) ENTRIES_MAX * IovecDescriptor.SIZE, 8);
    }

    int count() {
        return count;
    }

    /** The index of the entry holding all of {@code [address, address + length)}, or -1. */
    int indexOf(final long address, final long length) {
        for (int i = 0; i < count; i++) {
            if (address >= base[i] && address + length <= end[i]) {
                return i;
            }
        }
        return -1;
    }

    /** Replaces the table with {@code segments}: 0, or -errno of the failing register call. */
    int register(final IoUring ring, final List<MemorySegment> segments) {
        if (count > 0) {
            final int rc = ring.register(UringConstants.UNREGISTER_BUFFERS, 0L, 0);
            if (rc < 0) {
                return rc;
            }
            count = 0;
        }
        int n = 0;
        for (final MemorySegment s : segments) {
            for (long at = 0; at < s.byteSize(); at += UringConstants.FIXED_BUFFER_BYTES_MAX) {
                if (n == ENTRIES_MAX) {
                    throw new IllegalArgumentException("more than " + ENTRIES_MAX + " fixed-buffer entries asked");
                }
                final long len = Math.min(UringConstants.FIXED_BUFFER_BYTES_MAX, s.byteSize() - at);
                base[n] = s.address() + at;
                end[n] = base[n] + len;
                iovecs.set(JAVA_LONG, (long) n * IovecDescriptor.SIZE + IovecDescriptor.BASE, base[n]);
                iovecs.set(JAVA_LONG, (long) n * IovecDescriptor.SIZE + IovecDescriptor.LEN, len);
                n++;
            }
        }
        if (n == 0) {
            return 0;
        }
        final int rc = ring.register(UringConstants.REGISTER_BUFFERS, iovecs.address(), n);
        if (rc >= 0) {
            count = n;
            return 0;
        }
        return rc;
    }
}
