package dev.kvtier.realio.calibrate;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps {@code depth} I/Os of one size in flight on a device for a fixed time: each in-flight position {@code k}
 * (its ioId) resubmits at a fresh random block-aligned offset as soon as it completes, until the time is up; then
 * the rest drain. Random offsets come from an inline xorshift, latencies from one {@code nanoTime} per completion,
 * and buffers are shared round-robin from one region, so the measuring loop allocates nothing. Completions are taken
 * one at a time and each one's resubmission goes to the kernel at once ({@link PolledDevice#flush}), as a run's loop
 * drives its device (one completion a step, then a flush); only when none is ready does the meter wait, in the same
 * call that submits ({@link PolledDevice#await}). Taking every ready completion first and resubmitting them in one
 * call (about 11 I/Os a call on average, where fio makes about one call an I/O) left the device short of its depth
 * after each wake-up: on this project's VM, 4 KiB
 * random reads at depth 32 on one core ran at 82-93k IOPS that way against 89-107k one at a time and 100-103k for fio
 * (io_uring, registered file and buffers) in the same minutes, at the same CPU time per I/O (3.0-3.6 us).
 *
 * <p><b>Reads measure only what this run wrote.</b> On ext4 and xfs a range that was allocated ({@code fallocate})
 * but never written is an unwritten extent: an O_DIRECT read of it returns zeros without touching the disk, at
 * memory speed (measured on this project's VM: 16 to 44 GB/s with no byte reaching the block device). So a read cell
 * is refused until {@link #fill} has written the whole span in this run, and {@link #readBack} checks that sampled
 * pages hold what the fill wrote: every 4 KiB page of the fill starts with a word made of this meter's nonce and the
 * page's offset, so a page that reads back zeros, another run's data or another page's data is caught. The buffers
 * are filled with pseudo-random bytes at construction, so no write is all zeros (a backend that detects zero writes,
 * as QEMU's {@code detect-zeroes} or a thin volume does, would store nothing and read back nothing).
 */
public final class IoMeter implements CompletionSink {
    private static final long PAGE_BYTES = 4096;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** The measuring thread's CPU time (user and system; io_uring's inline submission and task work count here). */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final PolledDevice device;
    private final NativeRegion buffers;
    private final long spanBytes;
    private final long nonce;
    private long writtenBytes;
    private long[] submittedNs = new long[0];
    private IoOp op;
    private long blockBytes;
    private int buffersInUse;
    private long deadlineNs;
    private long random;
    private int inFlight;
    private long operations;
    private long errors;
    private long latencySumNs;
    private long lastCompletionNs;

    /**
     * @param device    the device to measure
     * @param buffers   I/O memory; a cell of {@code blockBytes} uses as many whole blocks of it as fit (up to depth)
     * @param spanBytes offsets fall in {@code [0, spanBytes)}
     */
    public IoMeter(final PolledDevice device, final NativeRegion buffers, final long spanBytes) {
        this(device, buffers, spanBytes, System.nanoTime() * GOLDEN | 1, 0);
    }

    private IoMeter(final PolledDevice device, final NativeRegion buffers, final long spanBytes, final long nonce,
                    final long writtenBytes) {
        if (spanBytes <= 0 || spanBytes > device.capacityBytes()) {
            throw new IllegalArgumentException("span " + spanBytes + " B must be in (0, " + device.capacityBytes()
                + "]");
        }
        if (spanBytes % PAGE_BYTES != 0 || buffers.sizeBytes() % PAGE_BYTES != 0) {
            throw new IllegalArgumentException("span " + spanBytes + " B and buffers " + buffers.sizeBytes()
                + " B must be multiples of " + PAGE_BYTES);
        }
        this.device = device;
        this.buffers = buffers;
        this.spanBytes = spanBytes;
        this.nonce = nonce;
        this.writtenBytes = writtenBytes;
        scramble(buffers.segment(), nonce);
    }

    /**
     * A meter of the same span on other buffers (of another kind of memory, say), which shares this meter's fill: what
     * this one wrote, the other may read.
     */
    public IoMeter sibling(final NativeRegion otherBuffers) {
        return sibling(device, otherBuffers);
    }

    /**
     * A meter over {@code otherDevice}, which must be open on the same file as this meter's device (another I/O path,
     * say), sharing this meter's fill. The caller vouches for the file; the other meter's reads are as preconditioned
     * as this one's.
     */
    public IoMeter sibling(final PolledDevice otherDevice, final NativeRegion otherBuffers) {
        return new IoMeter(otherDevice, otherBuffers, spanBytes, nonce, writtenBytes);
    }

    /** Fills {@code segment} with xorshift words seeded by {@code seed}: nothing the meter writes is all zeros. */
    private static void scramble(final MemorySegment segment, final long seed) {
        long x = seed;
        for (long at = 0; at + Long.BYTES <= segment.byteSize(); at += Long.BYTES) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            segment.set(JAVA_LONG, at, x);
        }
    }

    /** The first word of the page at {@code fileOffset} as this meter's fill writes it. */
    long pageWord(final long fileOffset) {
        return nonce ^ (fileOffset / PAGE_BYTES + 1) * GOLDEN;
    }

    /** Whether the device is io_uring with its file registered (requests use IOSQE_FIXED_FILE). */
    public boolean fixedFile() {
        return device instanceof IoUringDevice u && u.fixedFile();
    }

    /** Whether the device is io_uring with fixed buffers registered (the meter's, when its caller registered them). */
    public boolean fixedBuffers() {
        return device instanceof IoUringDevice u && u.fixedBufferCount() > 0;
    }

    /** Bytes of {@code [0, span)} this meter has written (the fill's progress); reads need all of it. */
    public long writtenBytes() {
        return writtenBytes;
    }

    /** Measures one cell for {@code durationNs}; {@code seed} picks the offsets. */
    public Measurement measure(final IoOp ioOp, final long block, final int depth, final long durationNs,
                               final long seed) {
        if (ioOp == IoOp.FLUSH || block <= 0 || block % 4096 != 0 || block > spanBytes || block > buffers.sizeBytes()) {
            throw new IllegalArgumentException("cannot measure " + ioOp + " of " + block + " B (span " + spanBytes
                + " B, buffers " + buffers.sizeBytes() + " B)");
        }
        if (depth < 1 || depth > device.depth()) {
            throw new IllegalArgumentException("depth " + depth + " must be in [1, " + device.depth() + "]");
        }
        if (ioOp == IoOp.READ && writtenBytes < spanBytes) {
            throw new IllegalStateException("a read cell measures only bytes this run wrote: fill the whole span ("
                + spanBytes + " B) first; " + writtenBytes + " B are written (a range never written reads as zeros"
                + " without touching the disk)");
        }
        if (submittedNs.length < depth) {
            submittedNs = new long[depth];
        }
        op = ioOp;
        blockBytes = block;
        buffersInUse = (int) Math.max(1, Math.min(depth, buffers.sizeBytes() / block));
        random = seed | 1;
        operations = 0;
        errors = 0;
        latencySumNs = 0;
        final long startCpuNs = THREADS.getCurrentThreadCpuTime();
        final long startNs = System.nanoTime();
        deadlineNs = startNs + durationNs;
        for (int k = 0; k < depth; k++) {
            submit(k, startNs);
        }
        inFlight = depth;
        lastCompletionNs = startNs;
        while (inFlight > 0) {
            if (device.poll(this, 1) == 0) {
                device.await(Long.MAX_VALUE);
            } else {
                device.flush();
            }
        }
        final long cpuNs = THREADS.getCurrentThreadCpuTime() - startCpuNs;
        final long elapsedNs = Math.max(1, lastCompletionNs - startNs);
        return new Measurement(op, block, depth, (long) (operations * (double) block * 1e9 / elapsedNs),
            (long) (operations * 1e9 / elapsedNs), operations == 0 ? 0 : latencySumNs / operations, operations,
            errors, operations == 0 || startCpuNs < 0 ? -1 : cpuNs / operations);
    }

    private void submit(final int k, final long nowNs) {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        final long blocks = spanBytes / blockBytes;
        final long offset = Math.floorMod(random, blocks) * blockBytes;
        submittedNs[k] = nowNs;
        device.submitBlock(k, op, offset, buffers, (k % buffersInUse) * blockBytes, blockBytes);
    }

    @Override
    public void complete(final long ioId, final long result) {
        final long nowNs = System.nanoTime();
        final int k = (int) ioId;
        latencySumNs += nowNs - submittedNs[k];
        lastCompletionNs = nowNs;
        if (result == blockBytes) {
            operations++;
        } else {
            errors++;
        }
        if (nowNs - deadlineNs < 0) {
            submit(k, nowNs);
        } else {
            inFlight--;
        }
    }

    /**
     * The fill's writes in flight, the buffers they hold, and when each completed; a failed write stops the
     * calibration.
     */
    private static final class FillWrites implements CompletionSink {
        private final long block;
        private final long span;
        private final long startNs;
        private final boolean[] busy;
        private final long[] doneNs;
        private final long[] sizes;
        private int pending;
        private long written;

        FillWrites(final long block, final long span, final int slots, final long startNs) {
            this.block = block;
            this.span = span;
            this.startNs = startNs;
            this.busy = new boolean[slots];
            final int count = Math.toIntExact((span + block - 1) / block);
            this.doneNs = new long[count];
            this.sizes = new long[count];
        }

        @Override
        public void complete(final long ioId, final long result) {
            if (result != Math.min(block, span - ioId)) {
                throw new IllegalStateException("fill write at " + ioId + " failed: " + result);
            }
            busy[(int) (ioId / block % busy.length)] = false;
            doneNs[(int) (ioId / block)] = System.nanoTime() - startNs;
            sizes[(int) (ioId / block)] = result;
            written += result;
            pending--;
        }
    }

    /** One I/O a caller waits for, and its result once it completed. */
    private static final class OneIo implements CompletionSink {
        private boolean done;
        private long result;

        @Override
        public void complete(final long ioId, final long r) {
            result = r;
            done = true;
        }
    }

    /**
     * Writes {@code [0, spanBytes)} sequentially with {@code block} writes at depth 8 (a full write pass, as fio's and
     * the SSD test specifications' preconditioning), each 4 KiB page starting with {@link #pageWord}; returns the
     * elapsed nanoseconds. A buffer is reused only once its write completed, so every page carries its own word.
     */
    public long fill(final long block) {
        return pass(block, spanBytes, spanBytes, 0).writeNs();
    }

    /**
     * Writes {@code [0, bytes)} as {@link #fill} does, in bursts of {@code burstBytes}: after each burst but the last,
     * once its writes completed, the pass pauses {@code gapNs} (the pace of a run that writes between computing).
     */
    public WritePass pass(final long block, final long bytes, final long burstBytes, final long gapNs) {
        if (block <= 0 || block % PAGE_BYTES != 0) {
            throw new IllegalArgumentException("fill block " + block + " B must be a positive multiple of 4096");
        }
        if (bytes <= 0 || bytes > spanBytes || bytes % PAGE_BYTES != 0 || burstBytes <= 0 || gapNs < 0) {
            throw new IllegalArgumentException("a pass of " + bytes + " B in bursts of " + burstBytes + " B, gaps of "
                + gapNs + " ns, over a span of " + spanBytes + " B");
        }
        final int slots = (int) Math.max(1, Math.min(8, buffers.sizeBytes() / block));
        final long startNs = System.nanoTime();
        final FillWrites writes = new FillWrites(block, bytes, slots, startNs);
        long next = 0;
        long burstEnd = Math.min(burstBytes, bytes);
        while (next < bytes || writes.pending > 0) {
            if (next == burstEnd && writes.pending == 0) {
                pause(gapNs);
                burstEnd = Math.min(burstEnd + burstBytes, bytes);
            }
            while (next < burstEnd && writes.pending < Math.min(slots, device.depth())
                && !writes.busy[(int) (next / block % slots)]) {
                final long len = Math.min(block, bytes - next);
                final int slot = (int) (next / block % slots);
                for (long page = 0; page < len; page += PAGE_BYTES) {
                    buffers.segment().set(JAVA_LONG, slot * block + page, pageWord(next + page));
                }
                writes.busy[slot] = true;
                device.submitBlock(next, IoOp.WRITE, next, buffers, slot * block, len);
                next += len;
                writes.pending++;
            }
            if (writes.pending > 0) {
                device.await(1_000_000_000L);
                device.poll(writes, 64);
            }
        }
        if (writes.written != bytes) {
            throw new IllegalStateException("the fill wrote " + writes.written + " B of " + bytes + " B");
        }
        writtenBytes = Math.max(writtenBytes, bytes);
        return new WritePass(writes.doneNs, writes.sizes, System.nanoTime() - startNs);
    }

    /** Waits {@code ns} of wall time (a calibration's pause between bursts or before a FLUSH). */
    static void pause(final long ns) {
        final long until = System.nanoTime() + ns;
        for (long left = ns; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Reads {@code samples} pages back one at a time (the first, the last, the rest at random) and returns how many
     * do not start with the word the fill wrote there: 0 when the device holds what this run wrote, {@code samples}
     * when it holds none of it (a file never written reads as zeros). Call it after {@link #fill}, before any write
     * cell overwrites pages with other content.
     */
    public int readBack(final int samples, final long seed) {
        if (samples < 2) {
            throw new IllegalArgumentException("read back at least the first and the last page, not " + samples);
        }
        final OneIo io = new OneIo();
        final long pages = spanBytes / PAGE_BYTES;
        long x = seed | 1;
        int bad = 0;
        for (int i = 0; i < samples; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            final long at = (i == 0 ? 0 : i == 1 ? pages - 1 : Math.floorMod(x, pages)) * PAGE_BYTES;
            buffers.segment().set(JAVA_LONG, 0, ~pageWord(at));
            waitOne(io, () -> device.submitBlock(3, IoOp.READ, at, buffers, 0, PAGE_BYTES));
            if (io.result != PAGE_BYTES || buffers.segment().get(JAVA_LONG, 0) != pageWord(at)) {
                bad++;
            }
        }
        return bad;
    }

    /**
     * Mean latency of a FLUSH after a 4 KiB write, over {@code samples} rounds; one untimed FLUSH first, so what
     * earlier cells left in the disk's cache is not counted (that is the drain's cost, measured apart).
     */
    public long flushLatencyNs(final int samples) {
        final OneIo io = new OneIo();
        flushNs(io);
        long sum = 0;
        for (int i = 0; i < samples; i++) {
            final long at = (long) i % (spanBytes / 4096) * 4096;
            waitOne(io, () -> device.submitBlock(1, IoOp.WRITE, at, buffers, 0, 4096));
            sum += flushNs(io);
        }
        return sum / Math.max(1, samples);
    }

    /**
     * Times one FLUSH on its own: right after a write pass, how long the disk takes to write back what it still
     * holds in a volatile cache (the drain {@link DeviceCalibration} measures).
     */
    public long flushNs() {
        return flushNs(new OneIo());
    }

    private long flushNs(final OneIo io) {
        final long start = System.nanoTime();
        waitOne(io, () -> device.submitBlock(2, IoOp.FLUSH, 0, null, 0, 0));
        final long took = System.nanoTime() - start;
        if (io.result != 0) {
            throw new IllegalStateException("flush failed: " + io.result);
        }
        return took;
    }

    private void waitOne(final OneIo io, final Runnable submit) {
        io.done = false;
        submit.run();
        while (!io.done) {
            device.await(1_000_000_000L);
            device.poll(io, 1);
        }
    }
}
