package dev.kvtier.realio.device;

import static dev.kvtier.realio.uring.UringConstants.OP_FSYNC;
import static dev.kvtier.realio.uring.UringConstants.OP_READ;
import static dev.kvtier.realio.uring.UringConstants.OP_READV;
import static dev.kvtier.realio.uring.UringConstants.OP_READ_FIXED;
import static dev.kvtier.realio.uring.UringConstants.OP_WRITE;
import static dev.kvtier.realio.uring.UringConstants.OP_WRITEV;
import static dev.kvtier.realio.uring.UringConstants.OP_WRITE_FIXED;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.uring.CqeHandler;
import dev.kvtier.realio.uring.IoUring;
import dev.kvtier.realio.uring.UringConstants;
import dev.kvtier.realio.uring.UringSetup;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The L2 device on io_uring, with O_DIRECT. Each accepted request takes an entry of a fixed table; a request becomes
 * one SQE (READ/WRITE, READ_FIXED/WRITE_FIXED when its buffer lies in a registered fixed buffer, FSYNC for a
 * FLUSH) or, with several memory segments, READV/WRITEV SQEs of at most {@code iovPerSqe} iovecs each (adjacent
 * segments merged; a request with more pieces is split and its parts' results summed). The SQE's user_data is
 * {@code entry << 32 | partBytes}, so a completion needs no lookup. A short part (fewer bytes than asked, as when
 * the file was truncated under the device) completes the request with -EIO and is counted.
 *
 * <p>Everything is allocated at open: the ring, the request table, the iovec area ({@link VectorParts}). The file is
 * registered (requests use IOSQE_FIXED_FILE). A read or write of {@link #ASYNC_FROM_BYTES} or more goes with
 * IOSQE_ASYNC to the kernel's workers, so the loop thread never waits in its submit for the disk (docs/commands/run.md,
 * "Running on a real disk").
 *
 * <p>The checks it shares with the FileChannel device (alignment, range, the paired memory, the owning thread, close
 * once) are {@link DeviceGuard}'s; the file is opened by {@link DirectFile#descriptor}. Confined to the thread that
 * opened it.
 */
public final class IoUringDevice implements PolledDevice {
    /** Most bytes one SQE moves (the kernel caps one read or write just under 2 GiB). */
    static final long PART_BYTES_MAX = 1L << 30;
    /** Writes (or vectored write parts) of at least this many bytes go to the kernel's async workers. */
    public static final long ASYNC_FROM_BYTES = 1L << 20;

    private final Kernel kernel;
    private final IoUring ring;
    private final Path path;
    private final int fileFd;
    private final int sqeFd;
    private final byte sqeFlags;
    private final long capacityBytes;
    private final long baseOffset;
    private final int depth;
    private final DeviceGuard guard;
    private final FixedBuffers buffers;
    private final VectorParts vectors;
    private final RequestTable requests;
    private final CqeHandler onCqe = this::onCqe;
    private int sqesInFlight;
    private long asyncSqes;
    private CompletionSink sink;
    private int delivered;
    private long shortTransfers;
    private long enterCalls;

    private IoUringDevice(final Kernel kernel, final IoUring ring, final DeviceFile file, final int fileFd,
                          final IoUringLimits limits, final RegionResolver<NativeRegion> memory) {
        final Path path = file.path();
        final long sizeBytes = file.sizeBytes();
        this.kernel = kernel;
        this.ring = ring;
        this.path = path;
        this.fileFd = fileFd;
        this.capacityBytes = sizeBytes;
        this.baseOffset = file.baseOffset();
        this.depth = limits.depth();
        this.guard = new DeviceGuard("io_uring device", path, sizeBytes, memory);
        this.buffers = new FixedBuffers(ring);
        this.vectors = new VectorParts(ring, limits.iovPerSqe(), guard);
        this.requests = new RequestTable(limits.maxRequests());
        final MemorySegment files = ring.allocate(4, 4);
        files.set(JAVA_INT, 0, fileFd);
        final boolean fixed = ring.register(UringConstants.REGISTER_FILES, files.address(), 1) >= 0;
        this.sqeFd = fixed ? 0 : fileFd;
        this.sqeFlags = fixed ? UringConstants.SQE_FIXED_FILE : 0;
    }

    /** Opens {@code path} with the real kernel and {@link IoUringLimits#of} {@code depth}; see the next method. */
    public static OpenResult open(final Path path, final long sizeBytes, final int depth,
                                  final RegionResolver<NativeRegion> memory) {
        return open(LibcKernel.create(), path, sizeBytes, IoUringLimits.of(depth), memory);
    }

    /**
     * Sets up a ring of {@code limits.depth()} (rounded up to a power of two) entries and opens {@code path} with
     * O_DIRECT, pre-sizing it to {@code sizeBytes}, to move the bytes of {@code memory}'s regions.
     */
    public static OpenResult open(final Kernel kernel, final Path path, final long sizeBytes,
                                  final IoUringLimits limits, final RegionResolver<NativeRegion> memory) {
        return open(kernel, DeviceFile.whole(path, sizeBytes), limits, memory);
    }

    /** As above, on the device {@code file} describes (its offsets land from the file's base offset on). */
    public static OpenResult open(final Kernel kernel, final DeviceFile file, final IoUringLimits limits,
                                  final RegionResolver<NativeRegion> memory) {
        final IoUring ring;
        switch (UringSetup.create(kernel, Integer.highestOneBit(limits.depth() * 2 - 1))) {
            case UringSetup.Unavailable u -> {
                return new OpenResult.Failed(OpenResult.Failure.URING_UNAVAILABLE, u.message());
            }
            case UringSetup.Ready r -> ring = r.ring();
        }
        return switch (DirectFile.descriptor(kernel, file.path(), file.fileBytes())) {
            case DirectFile.Refused<Integer>(final OpenResult.Failed failure) -> {
                ring.close();
                yield failure;
            }
            case DirectFile.Opened<Integer>(final Integer fd) -> new OpenResult.Opened(
                new IoUringDevice(kernel, ring, file, fd, limits, memory), "");
        };
    }

    @Override
    public String kind() {
        return "io_uring";
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int maxRequests() {
        return requests.capacity();
    }

    @Override
    public int outstanding() {
        return requests.used();
    }

    /** The IORING_SETUP_* flags the kernel accepted (SINGLE_ISSUER, DEFER_TASKRUN when it could). */
    public int setupFlags() {
        return ring.setupFlags();
    }

    /** SQEs handed to the kernel's async workers so far. */
    public long asyncSqes() {
        return asyncSqes;
    }

    /** Fixed-buffer entries registered now. */
    public int fixedBufferCount() {
        return buffers.count();
    }

    /** True when SQEs name the file by its registered index. */
    public boolean fixedFile() {
        return sqeFlags != 0;
    }

    /** Parts that moved fewer bytes than asked, since open. */
    public long shortTransfers() {
        return shortTransfers;
    }

    /** io_uring_enter calls made, since open. */
    public long enterCalls() {
        return enterCalls;
    }

    /**
     * Registers {@code segments} (each 4096-aligned) as the ring's fixed buffers, replacing any earlier set, so
     * that I/O to or from them is READ_FIXED/WRITE_FIXED (no page pinning per I/O). Call with nothing outstanding,
     * typically once the core has allocated its L1 pool. Returns 0 or -errno (ENOMEM: RLIMIT_MEMLOCK too small).
     */
    public int registerBuffers(final List<MemorySegment> segments) {
        guard.checkUsable();
        if (requests.used() != 0) {
            throw new IllegalStateException("register fixed buffers with no request outstanding (" + requests.used()
                + " are)");
        }
        for (final MemorySegment s : segments) {
            DeviceGuard.checkAligned("fixed buffer address", s.address());
            DeviceGuard.checkAligned("fixed buffer length", s.byteSize());
        }
        return buffers.register(ring, segments);
    }

    @Override
    public void submit(final IoRequest request) {
        guard.checkUsable();
        final List<IoSegment> segs = request.segments();
        if (request.op() == IoOp.FLUSH) {
            submitBlock(request.ioId(), IoOp.FLUSH, 0, null, 0, 0);
            return;
        }
        if (segs.size() == 1) {
            final IoSegment s = segs.getFirst();
            submitBlock(request.ioId(), request.op(), request.fileOffset(), guard.region(s), s.regionOffset(),
                s.lengthBytes());
            return;
        }
        guard.checkRequest(request);
        final int entry = requests.accept(request.ioId(), request.op(), request.fileOffset(), request.lengthBytes());
        requests.vector(entry, request);
        issueOrQueue(entry);
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        guard.checkUsable();
        if (op == IoOp.FLUSH) {
            issueOrQueue(requests.accept(ioId, op, 0, 0));
            return;
        }
        guard.checkRange(fileOffset, lengthBytes);
        DeviceGuard.checkBuffer(region, regionOffset, lengthBytes);
        if (lengthBytes > PART_BYTES_MAX) {
            throw new IllegalArgumentException("one buffer of " + lengthBytes + " B exceeds the " + PART_BYTES_MAX
                + " B an SQE moves; split it into segments");
        }
        final int entry = requests.accept(ioId, op, fileOffset, lengthBytes);
        requests.single(entry, region.address(regionOffset));
        issueOrQueue(entry);
    }

    private void issueOrQueue(final int entry) {
        if (requests.queued() == 0 && issue(entry)) {
            return;
        }
        requests.enqueue(entry);
    }

    /** Prepares as many SQEs of {@code entry} as the ring and depth allow; true when all of them are prepared. */
    private boolean issue(final int entry) {
        final IoRequest vector = requests.vectorOf(entry);
        while (sqesInFlight < depth && ring.sqSpace() > 0) {
            if (vector != null) {
                if (issueVectorPart(entry, vector)) {
                    return true;
                }
                continue;
            }
            final IoOp op = requests.op(entry);
            final long len = requests.lengthOf(entry);
            final long userData = (long) entry << 32 | len;
            if (op == IoOp.FLUSH) {
                ring.prep(OP_FSYNC, sqeFlags, sqeFd, 0, 0, 0, UringConstants.FSYNC_DATASYNC, userData, 0);
            } else {
                final long addr = requests.address(entry);
                final int fixed = buffers.indexOf(addr, len);
                final byte opcode = op == IoOp.READ ? (fixed >= 0 ? OP_READ_FIXED : OP_READ)
                    : (fixed >= 0 ? OP_WRITE_FIXED : OP_WRITE);
                ring.prep(opcode, flagsFor(op, len), sqeFd, baseOffset + requests.fileOffset(entry), addr, (int) len, 0,
                    userData, Math.max(fixed, 0));
            }
            sqesInFlight++;
            requests.partIssued(entry, true);
            return true;
        }
        return false;
    }

    /** Prepares the next READV/WRITEV part of a vectored request; true when it was the last. */
    private boolean issueVectorPart(final int entry, final IoRequest request) {
        final int index = ring.nextIndex();
        final long fileOffset = requests.cursor(entry);
        final int count = vectors.fill(index, requests, entry, request);
        final long partBytes = requests.cursor(entry) - fileOffset;
        final boolean last = requests.nextSegment(entry) == request.segments().size();
        final byte opcode = requests.op(entry) == IoOp.READ ? OP_READV : OP_WRITEV;
        ring.prep(opcode, flagsFor(requests.op(entry), partBytes), sqeFd, baseOffset + fileOffset,
            vectors.address(index), count, 0, (long) entry << 32 | partBytes, 0);
        sqesInFlight++;
        requests.partIssued(entry, last);
        return last;
    }

    /** The SQE flags of a read or write of {@code lengthBytes}: async from {@link #ASYNC_FROM_BYTES} on. */
    private byte flagsFor(final IoOp op, final long lengthBytes) {
        if (op == IoOp.FLUSH || lengthBytes < ASYNC_FROM_BYTES) {
            return sqeFlags;
        }
        asyncSqes++;
        return (byte) (sqeFlags | UringConstants.SQE_ASYNC);
    }

    private void issueQueued() {
        while (requests.queued() > 0) {
            if (!issue(requests.peekQueued())) {
                return;
            }
            requests.dequeue();
        }
    }

    @Override
    public int flush() {
        guard.checkUsable();
        issueQueued();
        final boolean runTaskWork = ring.deferTaskrun() && sqesInFlight > 0 && ring.ready() == 0;
        if (ring.unsubmitted() == 0 && !runTaskWork) {
            return 0;
        }
        enterCalls++;
        final int rc = ring.enter(0, runTaskWork, 0);
        if (rc < 0) {
            throw new IllegalStateException("io_uring_enter (submit) failed on " + path + ": " + Errno.ofResult(rc));
        }
        return rc;
    }

    @Override
    public int poll(final CompletionSink completions, final int max) {
        guard.checkUsable();
        if (max <= 0) {
            throw new IllegalArgumentException("poll max must be positive, got " + max);
        }
        sink = completions;
        delivered = 0;
        try {
            ring.reap(onCqe, max);
        } finally {
            sink = null;
        }
        issueQueued();
        return delivered;
    }

    @Override
    public void await(final long timeoutNs) {
        guard.checkUsable();
        issueQueued();
        if (ring.ready() > 0) {
            flush();
            return;
        }
        if (sqesInFlight == 0 && ring.unsubmitted() == 0) {
            LockSupport.parkNanos(Math.max(0, timeoutNs));
            return;
        }
        enterCalls++;
        final int rc = ring.enter(1, true, timeoutNs == Long.MAX_VALUE ? -1 : Math.max(0, timeoutNs)); // -1: untimed
        if (rc < 0) {
            throw new IllegalStateException("io_uring_enter (wait) failed on " + path + ": " + Errno.ofResult(rc));
        }
    }

    private void onCqe(final long userData, final int result) {
        final int entry = (int) (userData >>> 32);
        final long partBytes = userData & 0xFFFFFFFFL;
        sqesInFlight--;
        if (result < 0) {
            requests.fail(entry, result);
        } else if (result != partBytes) {
            shortTransfers++;
            requests.fail(entry, -Errno.EIO);
        } else {
            requests.moved(entry, result);
        }
        if (requests.partDone(entry)) {
            final long ioId = requests.ioId(entry);
            final long res = requests.result(entry);
            requests.release(entry);
            delivered++;
            sink.complete(ioId, res);
        }
    }

    @Override
    public void close() {
        if (!guard.close()) {
            return;
        }
        ring.close();
        final int rc = kernel.close(fileFd);
        if (rc < 0) {
            throw new IllegalStateException("close(" + path + ") failed: " + Errno.ofResult(rc));
        }
    }

    @Override
    public String toString() {
        return "IoUringDevice[" + path + ", " + capacityBytes + " B, depth " + depth + ", setup flags 0x"
            + Integer.toHexString(ring.setupFlags()) + ", fixed buffers " + buffers.count() + "]";
    }
}
