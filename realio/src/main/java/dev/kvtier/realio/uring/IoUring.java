package dev.kvtier.realio.uring;

import static dev.kvtier.realio.uring.UringConstants.ENTER_EXT_ARG;
import static dev.kvtier.realio.uring.UringConstants.ENTER_GETEVENTS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One io_uring instance: the ring descriptor, the mapped SQ ring, CQ ring and SQE array, and the local shadow
 * indices. Built by {@link UringSetup}. SQEs are written whole (eight 8-byte stores) so no stale field of an
 * earlier use survives; the SQ index array is filled once with the identity at setup, so SQE {@code i} always sits
 * at ring position {@code i}. Not thread-safe: one thread prepares, submits and reaps.
 */
public final class IoUring implements AutoCloseable {
    private static final VarHandle INT = JAVA_INT.varHandle();

    private final Kernel kernel;
    private final int fd;
    private final int setupFlags;
    private final int features;
    private final RingMaps maps;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqHeadOffset;
    private final long sqTailOffset;
    private final long cqHeadOffset;
    private final long cqTailOffset;
    private final long cqesOffset;
    private final int sqEntries;
    private final int sqMask;
    private final int cqEntries;
    private final int cqMask;
    private final Arena arena;
    private final MemorySegment waitBlock;
    private int sqTail;
    private int sqHeadCached;
    private int submittedTail;
    private int cqHead;
    private boolean closed;

    IoUring(final Kernel kernel, final int fd, final MemorySegment params, final RingMaps maps, final Arena arena) {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalStateException("realio writes SQEs for a little-endian machine");
        }
        this.kernel = kernel;
        this.fd = fd;
        this.maps = maps;
        this.arena = arena;
        this.setupFlags = params.get(JAVA_INT, ParamsDescriptor.FLAGS);
        this.features = params.get(JAVA_INT, ParamsDescriptor.FEATURES);
        this.sqRing = maps.sqRing();
        this.cqRing = maps.cqRing();
        this.sqes = maps.sqes();
        final long sq = ParamsDescriptor.SQ_OFF;
        final long cq = ParamsDescriptor.CQ_OFF;
        this.sqHeadOffset = params.get(JAVA_INT, sq + ParamsDescriptor.OFF_HEAD);
        this.sqTailOffset = params.get(JAVA_INT, sq + ParamsDescriptor.OFF_TAIL);
        this.cqHeadOffset = params.get(JAVA_INT, cq + ParamsDescriptor.OFF_HEAD);
        this.cqTailOffset = params.get(JAVA_INT, cq + ParamsDescriptor.OFF_TAIL);
        this.cqesOffset = params.get(JAVA_INT, cq + ParamsDescriptor.CQ_OFF_CQES);
        this.sqEntries = params.get(JAVA_INT, ParamsDescriptor.SQ_ENTRIES);
        this.cqEntries = params.get(JAVA_INT, ParamsDescriptor.CQ_ENTRIES);
        this.sqMask = sqRing.get(JAVA_INT, (long) params.get(JAVA_INT, sq + ParamsDescriptor.OFF_RING_MASK));
        this.cqMask = cqRing.get(JAVA_INT, (long) params.get(JAVA_INT, cq + ParamsDescriptor.OFF_RING_MASK));
        if (sqMask != sqEntries - 1 || cqMask != cqEntries - 1) {
            throw new IllegalStateException("ring masks " + sqMask + "/" + cqMask + " do not match entries "
                + sqEntries + "/" + cqEntries);
        }
        final long array = params.get(JAVA_INT, sq + ParamsDescriptor.SQ_OFF_ARRAY);
        for (int i = 0; i < sqEntries; i++) {
            sqRing.set(JAVA_INT, array + 4L * i, i);
        }
        this.sqTail = (int) INT.getAcquire(sqRing, sqTailOffset);
        this.sqHeadCached = (int) INT.getAcquire(sqRing, sqHeadOffset);
        this.submittedTail = sqTail;
        this.cqHead = (int) INT.getAcquire(cqRing, cqHeadOffset);
        this.waitBlock = arena.allocate(GeteventsArgDescriptor.BLOCK_SIZE, 8);
    }

    /** The ring's file descriptor. */
    public int fd() {
        return fd;
    }

    /** The IORING_SETUP_* flags the ring was created with. */
    public int setupFlags() {
        return setupFlags;
    }

    /** The IORING_FEAT_* flags the kernel reported. */
    public int features() {
        return features;
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cqEntries;
    }

    /** True when completions are posted only while this thread enters the kernel with GETEVENTS. */
    public boolean deferTaskrun() {
        return (setupFlags & UringConstants.SETUP_DEFER_TASKRUN) != 0;
    }

    /** How many SQEs can be prepared now. */
    public int sqSpace() {
        int free = sqEntries - (sqTail - sqHeadCached);
        if (free == 0) {
            sqHeadCached = (int) INT.getAcquire(sqRing, sqHeadOffset);
            free = sqEntries - (sqTail - sqHeadCached);
        }
        return free;
    }

    /** The SQ ring position the next {@link #prep} writes (0 .. sqEntries - 1). */
    public int nextIndex() {
        return sqTail & sqMask;
    }

    /** SQEs prepared and not yet handed to the kernel. */
    public int unsubmitted() {
        return sqTail - submittedTail;
    }

    /**
     * Writes the next SQE. The caller checked {@link #sqSpace} first; a full ring here is a bug.
     *
     * @param flags    IOSQE_* flags
     * @param length   bytes, or the iovec count for READV/WRITEV
     * @param rwFlags  rw_flags / fsync_flags
     * @param bufIndex fixed buffer index for READ_FIXED/WRITE_FIXED (0 otherwise)
     */
    public void prep(final byte opcode, final byte flags, final int fileDescriptor, final long fileOffset,
                     final long address, final int length, final int rwFlags, final long userData,
                     final int bufIndex) {
        if (sqTail - sqHeadCached == sqEntries && sqSpace() == 0) {
            throw new IllegalStateException("SQ ring full (" + sqEntries + " entries): check sqSpace() first");
        }
        final long base = (long) (sqTail & sqMask) * SqeDescriptor.SIZE;
        sqes.set(JAVA_LONG, base, (opcode & 0xFFL) | (flags & 0xFFL) << 8 | (long) fileDescriptor << 32);
        sqes.set(JAVA_LONG, base + SqeDescriptor.OFF, fileOffset);
        sqes.set(JAVA_LONG, base + SqeDescriptor.ADDR, address);
        sqes.set(JAVA_LONG, base + SqeDescriptor.LEN, (length & 0xFFFFFFFFL) | (long) rwFlags << 32);
        sqes.set(JAVA_LONG, base + SqeDescriptor.USER_DATA, userData);
        sqes.set(JAVA_LONG, base + SqeDescriptor.BUF_INDEX, bufIndex & 0xFFFFL);
        sqes.set(JAVA_LONG, base + SqeDescriptor.ADDR3, 0L);
        sqes.set(JAVA_LONG, base + SqeDescriptor.PAD2, 0L);
        sqTail++;
    }

    /**
     * Publishes prepared SQEs and enters the kernel once: submits them, runs deferred task work when
     * {@code getEvents}, and, when {@code minComplete > 0}, waits up to {@code timeoutNs} for that many
     * completions (a negative {@code timeoutNs}: without a timer, which a timed wait arms in the kernel for every
     * sleep and which on a virtual machine costs an exit to the hypervisor each time). Returns the number of SQEs
     * the kernel consumed (0 on a timeout, a signal or a busy ring), or -errno for any other failure.
     */
    public int enter(final int minComplete, final boolean getEvents, final long timeoutNs) {
        checkOpen();
        INT.setRelease(sqRing, sqTailOffset, sqTail);
        final int toSubmit = sqTail - submittedTail;
        int flags = getEvents || minComplete > 0 ? ENTER_GETEVENTS : 0;
        long arg = 0;
        long argBytes = 0;
        if (minComplete > 0 && timeoutNs >= 0) {
            flags |= ENTER_EXT_ARG;
            final long ts = waitBlock.address() + GeteventsArgDescriptor.BLOCK_TIMESPEC;
            waitBlock.set(JAVA_LONG, GeteventsArgDescriptor.BLOCK_TIMESPEC + GeteventsArgDescriptor.TV_SEC,
                timeoutNs / 1_000_000_000L);
            waitBlock.set(JAVA_LONG, GeteventsArgDescriptor.BLOCK_TIMESPEC + GeteventsArgDescriptor.TV_NSEC,
                timeoutNs % 1_000_000_000L);
            waitBlock.set(JAVA_LONG, GeteventsArgDescriptor.TS, ts);
            arg = waitBlock.address();
            argBytes = GeteventsArgDescriptor.SIZE;
        }
        final int ret = kernel.ioUringEnter(fd, toSubmit, minComplete, flags, arg, argBytes);
        if (ret >= 0) {
            if (ret > toSubmit) {
                throw new IllegalStateException("kernel consumed " + ret + " SQEs of " + toSubmit);
            }
            submittedTail += ret;
            return ret;
        }
        final int errno = -ret;
        if (errno == Errno.ETIME || errno == Errno.EINTR || errno == Errno.EAGAIN || errno == Errno.EBUSY) {
            return 0;
        }
        return ret;
    }

    /** Completions ready to reap, without entering the kernel. */
    public int ready() {
        return (int) INT.getAcquire(cqRing, cqTailOffset) - cqHead;
    }

    /** Hands up to {@code max} ready CQEs to {@code handler}, oldest first, then frees their ring slots. */
    public int reap(final CqeHandler handler, final int max) {
        final int tail = (int) INT.getAcquire(cqRing, cqTailOffset);
        int head = cqHead;
        int n = 0;
        while (head != tail && n < max) {
            final long at = cqesOffset + (long) (head & cqMask) * CqeDescriptor.SIZE;
            final long userData = cqRing.get(JAVA_LONG, at + CqeDescriptor.USER_DATA);
            final int res = cqRing.get(JAVA_INT, at + CqeDescriptor.RES);
            head++;
            n++;
            cqHead = head;
            INT.setRelease(cqRing, cqHeadOffset, head);
            handler.onCqe(userData, res);
        }
        return n;
    }

    /** io_uring_register: 0 (or a count) or -errno. */
    public int register(final int opcode, final long argAddress, final int count) {
        checkOpen();
        return kernel.ioUringRegister(fd, opcode, argAddress, count);
    }

    /** Allocates memory that lives as long as the ring (for registration tables and iovecs). */
    public MemorySegment allocate(final long bytes, final long alignment) {
        checkOpen();
        return arena.allocate(bytes, alignment);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("io_uring " + fd + " is closed");
        }
    }

    /** Unmaps the rings and closes the descriptor (which also drops registered buffers and files). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        maps.unmap(kernel);
        final int rc = kernel.close(fd);
        arena.close();
        if (rc < 0) {
            throw new IllegalStateException("close(io_uring " + fd + ") failed: " + Errno.ofResult(rc));
        }
    }
}
