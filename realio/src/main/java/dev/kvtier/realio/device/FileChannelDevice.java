package dev.kvtier.realio.device;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The fallback L2 device: a FileChannel opened with {@code ExtendedOpenOption.DIRECT} and a small fixed pool of
 * worker threads doing positional reads and writes (one blocking call per segment). The loop thread queues jobs
 * and, on {@link #flush}, hands them to the workers through a bounded queue; workers hand finished jobs back
 * through another bounded queue, which {@link #poll} drains. Jobs come from a pool allocated at open. The same
 * alignment, range, thread and life-cycle checks as the io_uring device apply ({@link DeviceGuard}), and a short
 * transfer (end of file) is -EIO. The file is opened by {@link DirectFile#channel}.
 */
public final class FileChannelDevice implements PolledDevice {

    /** One request in flight; pooled. */
    private static final class Job {
        long ioId;
        IoOp op;
        long fileOffset;
        IoRequest request;
        MemorySegment buffer;
        long result;
    }

    private final Path path;
    private final FileChannel channel;
    private final long capacityBytes;
    private final long baseOffset;
    private final int depth;
    private final DeviceGuard guard;
    private final ArrayDeque<Job> pool;
    private final ArrayDeque<Job> queued;
    private final ArrayDeque<Job> ready;
    private final ArrayBlockingQueue<Job> work;
    private final ArrayBlockingQueue<Job> done;
    private final Thread[] workers;
    private final Job poison = new Job();
    private final int maxRequests;
    private volatile String lastError = "";

    private FileChannelDevice(final DeviceFile file, final FileChannel channel, final int depth,
                              final int maxRequests, final RegionResolver<NativeRegion> memory) {
        final Path path = file.path();
        final long capacityBytes = file.sizeBytes();
        this.path = path;
        this.channel = channel;
        this.capacityBytes = capacityBytes;
        this.baseOffset = file.baseOffset();
        this.depth = depth;
        this.maxRequests = maxRequests;
        this.guard = new DeviceGuard("FileChannel device", path, capacityBytes, memory);
        this.pool = new ArrayDeque<>(maxRequests);
        for (int i = 0; i < maxRequests; i++) {
            pool.push(new Job());
        }
        this.queued = new ArrayDeque<>(maxRequests);
        this.ready = new ArrayDeque<>(maxRequests);
        this.work = new ArrayBlockingQueue<>(maxRequests + depth);
        this.done = new ArrayBlockingQueue<>(maxRequests);
        this.workers = new Thread[depth];
        for (int i = 0; i < depth; i++) {
            workers[i] = Thread.ofPlatform().daemon().name("kvtier-filechannel-" + i).start(this::workLoop);
        }
    }

    /**
     * Opens {@code path} with DIRECT, growing a regular file to {@code sizeBytes} first, with {@code depth} worker
     * threads (1..64) and at most {@code maxRequests} requests outstanding, moving the bytes of {@code memory}'s
     * regions.
     */
    public static OpenResult open(final Path path, final long sizeBytes, final int depth, final int maxRequests,
                                  final RegionResolver<NativeRegion> memory) {
        return open(DeviceFile.whole(path, sizeBytes), depth, maxRequests, memory);
    }

    /** As above, on the device {@code file} describes (its offsets land from the file's base offset on). */
    public static OpenResult open(final DeviceFile file, final int depth, final int maxRequests,
                                  final RegionResolver<NativeRegion> memory) {
        if (depth < 1 || depth > 64) {
            throw new IllegalArgumentException("FileChannel device depth (threads) must be in [1, 64], got " + depth);
        }
        if (maxRequests < depth) {
            throw new IllegalArgumentException("maxRequests must be at least depth=" + depth + ", got " + maxRequests);
        }
        return switch (DirectFile.channel(file.path(), file.fileBytes())) {
            case DirectFile.Refused<FileChannel>(final OpenResult.Failed failure) -> failure;
            case DirectFile.Opened<FileChannel>(final FileChannel ch) -> new OpenResult.Opened(
                new FileChannelDevice(file, ch, depth, maxRequests, memory), "");
        };
    }

    @Override
    public String kind() {
        return "filechannel";
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
        return maxRequests;
    }

    @Override
    public int outstanding() {
        return maxRequests - pool.size();
    }

    /** The message of the last I/O exception a worker saw, or empty. */
    public String lastError() {
        return lastError;
    }

    @Override
    public void submit(final IoRequest request) {
        guard.checkUsable();
        if (request.op() == IoOp.FLUSH) {
            queue(request.ioId(), IoOp.FLUSH, 0, null, null);
            return;
        }
        guard.checkRequest(request);
        queue(request.ioId(), request.op(), request.fileOffset(), request, null);
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        guard.checkUsable();
        if (op == IoOp.FLUSH) {
            queue(ioId, op, 0, null, null);
            return;
        }
        guard.checkRange(fileOffset, lengthBytes);
        DeviceGuard.checkBuffer(region, regionOffset, lengthBytes);
        queue(ioId, op, fileOffset, null, region.segment().asSlice(regionOffset, lengthBytes));
    }

    private void queue(final long ioId, final IoOp op, final long fileOffset, final IoRequest request,
                       final MemorySegment buffer) {
        final Job j = pool.poll();
        if (j == null) {
            throw new IllegalStateException("more than " + maxRequests + " requests outstanding (maxRequests); "
                + "the caller must bound its I/Os");
        }
        j.ioId = ioId;
        j.op = op;
        j.fileOffset = fileOffset;
        j.request = request;
        j.buffer = buffer;
        queued.add(j);
    }

    @Override
    public int flush() {
        guard.checkUsable();
        int n = 0;
        while (!queued.isEmpty()) {
            if (!work.offer(queued.poll())) {
                throw new IllegalStateException("work queue full: more jobs than maxRequests");
            }
            n++;
        }
        return n;
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        guard.checkUsable();
        int n = 0;
        while (n < max) {
            Job j = ready.poll();
            if (j == null) {
                j = done.poll();
            }
            if (j == null) {
                break;
            }
            if (pool.size() >= maxRequests) {
                throw new IllegalStateException("completion of I/O " + j.ioId + " with no request outstanding");
            }
            final long ioId = j.ioId;
            final long result = j.result;
            j.request = null;
            j.buffer = null;
            pool.push(j);
            n++;
            sink.complete(ioId, result);
        }
        return n;
    }

    @Override
    public void await(final long timeoutNs) {
        guard.checkUsable();
        flush();
        if (!ready.isEmpty() || !done.isEmpty()) {
            return;
        }
        if (outstanding() == 0) {
            LockSupport.parkNanos(Math.max(0, timeoutNs));
            return;
        }
        try {
            final Job j = done.poll(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS);
            if (j != null) {
                ready.add(j);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void workLoop() {
        while (true) {
            final Job j;
            try {
                j = work.take();
            } catch (final InterruptedException e) {
                return;
            }
            if (j == poison) {
                return;
            }
            j.result = perform(j);
            if (!done.offer(j)) {
                throw new IllegalStateException("completion queue full: more jobs than maxRequests");
            }
        }
    }

    private long perform(final Job j) {
        try {
            if (j.op == IoOp.FLUSH) {
                channel.force(false);
                return 0;
            }
            if (j.buffer != null) {
                return transfer(j.op, j.buffer, j.fileOffset);
            }
            long total = 0;
            long position = j.fileOffset;
            final List<IoSegment> segs = j.request.segments();
            for (int i = 0; i < segs.size(); i++) {
                final IoSegment s = segs.get(i);
                final MemorySegment m = guard.region(s).segment().asSlice(s.regionOffset(), s.lengthBytes());
                final long r = transfer(j.op, m, position);
                if (r < 0) {
                    return r;
                }
                total += r;
                position += r;
            }
            return total;
        } catch (final IOException e) {
            lastError = e.toString();
            return -Errno.EIO;
        }
    }

    /** Moves all of {@code buffer}; the byte count, or -EIO for a short transfer. */
    private long transfer(final IoOp op, final MemorySegment buffer, final long position) throws IOException {
        final ByteBuffer bb = buffer.asByteBuffer();
        long at = baseOffset + position;
        while (bb.hasRemaining()) {
            final int n = op == IoOp.READ ? channel.read(bb, at) : channel.write(bb, at);
            if (n <= 0) {
                lastError = "short " + op + " at " + at + " of " + path;
                return -Errno.EIO;
            }
            at += n;
        }
        return buffer.byteSize();
    }

    /** Stops the workers (after the jobs already handed to them) and closes the channel. */
    @Override
    public void close() {
        if (!guard.close()) {
            return;
        }
        for (int i = 0; i < workers.length; i++) {
            work.add(poison);
        }
        for (final Thread w : workers) {
            try {
                w.join(TimeUnit.SECONDS.toMillis(30));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            channel.close();
        } catch (final IOException e) {
            throw new IllegalStateException("close(" + path + ") failed", e);
        }
    }

    @Override
    public String toString() {
        return "FileChannelDevice[" + path + ", " + capacityBytes + " B, " + depth + " threads]";
    }
}
