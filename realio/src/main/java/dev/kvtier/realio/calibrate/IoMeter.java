package dev.kvtier.realio.calibrate;

import dev.kvtier.core.port.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;

/**
 * Keeps {@code depth} I/Os of one size in flight on a device for a fixed time: each in-flight position {@code k}
 * (its ioId) resubmits at a fresh random block-aligned offset as soon as it completes, until the time is up; then
 * the rest drain. Random offsets come from an inline xorshift, latencies from one {@code nanoTime} per completion,
 * and buffers are shared round-robin from one region, so the measuring loop allocates nothing. One wait per batch:
 * {@link PolledDevice#await} submits what the completions resubmitted and waits in the same call.
 */
public final class IoMeter implements CompletionSink {
    private final PolledDevice device;
    private final NativeRegion buffers;
    private final long spanBytes;
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
        if (spanBytes <= 0 || spanBytes > device.capacityBytes()) {
            throw new IllegalArgumentException("span " + spanBytes + " B must be in (0, " + device.capacityBytes()
                + "]");
        }
        this.device = device;
        this.buffers = buffers;
        this.spanBytes = spanBytes;
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
        final long startNs = System.nanoTime();
        deadlineNs = startNs + durationNs;
        for (int k = 0; k < depth; k++) {
            submit(k, startNs);
        }
        inFlight = depth;
        lastCompletionNs = startNs;
        while (inFlight > 0) {
            device.await(1_000_000_000L);
            device.poll(this, depth);
        }
        final long elapsedNs = Math.max(1, lastCompletionNs - startNs);
        return new Measurement(op, block, depth, (long) (operations * (double) block * 1e9 / elapsedNs),
            (long) (operations * 1e9 / elapsedNs), operations == 0 ? 0 : latencySumNs / operations, operations,
            errors);
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

    /** The fill's writes in flight; a failed write stops the calibration (the disk refused a plain write). */
    private static final class FillWrites implements CompletionSink {
        private final long block;
        private int pending;

        FillWrites(final long block) {
            this.block = block;
        }

        @Override
        public void complete(final long ioId, final long result) {
            if (result != block) {
                throw new IllegalStateException("fill write at " + ioId + " failed: " + result);
            }
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

    /** Writes {@code [0, spanBytes)} sequentially with {@code block} writes at depth 8, so reads hit real data. */
    public void fill(final long block) {
        final FillWrites writes = new FillWrites(block);
        final int slots = (int) Math.max(1, Math.min(8, buffers.sizeBytes() / block));
        long next = 0;
        while (next < spanBytes || writes.pending > 0) {
            while (next < spanBytes && writes.pending < Math.min(slots, device.depth())) {
                final long len = Math.min(block, spanBytes - next);
                device.submitBlock(next, IoOp.WRITE, next, buffers, (next / block % slots) * block, len);
                next += len;
                writes.pending++;
            }
            device.await(1_000_000_000L);
            device.poll(writes, 64);
        }
    }

    /** Mean latency of a FLUSH after a 4 KiB write, over {@code samples} rounds. */
    public long flushLatencyNs(final int samples) {
        final OneIo io = new OneIo();
        long sum = 0;
        for (int i = 0; i < samples; i++) {
            final long at = (long) i % (spanBytes / 4096) * 4096;
            waitOne(io, () -> device.submitBlock(1, IoOp.WRITE, at, buffers, 0, 4096));
            final long start = System.nanoTime();
            waitOne(io, () -> device.submitBlock(2, IoOp.FLUSH, 0, null, 0, 0));
            sum += System.nanoTime() - start;
            if (io.result != 0) {
                throw new IllegalStateException("flush failed: " + io.result);
            }
        }
        return sum / Math.max(1, samples);
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
