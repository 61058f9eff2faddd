package dev.kvtier.realio.run;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;

/**
 * The two devices of a real run, the L2 data device and the crash-safe index's device, as the one device the
 * wall-clock loop drives: {@link #flush} and {@link #poll} go to both (index completions first, since a durable commit
 * waits for them), {@link #close} closes both. The core submits to each device directly; {@link #submit} here goes to
 * the data device.
 *
 * <p>Waiting: when only one device has requests outstanding, {@link #await} blocks in that one for the whole timeout.
 * When both do, it blocks in the index device (at most one index I/O is in flight, and it gates durable commits) for
 * at most {@link #BOTH_BUSY_WAIT_NS_MAX}, so a data completion is seen within that bound. Two io_uring rings (or
 * two FileChannel worker pools) cannot be waited on in one call without an eventfd; the bound keeps the cost of the
 * wake-ups small next to data I/Os of milliseconds.
 */
public final class DevicePair implements PolledDevice {
    /** Longest wait in the index device while the data device also has requests outstanding. */
    public static final long BOTH_BUSY_WAIT_NS_MAX = 100_000;

    private final PolledDevice data;
    private final PolledDevice index;

    public DevicePair(final PolledDevice data, final PolledDevice index) {
        if (data == index) {
            throw new IllegalArgumentException("the data and the index device must be two devices");
        }
        this.data = data;
        this.index = index;
    }

    public PolledDevice data() {
        return data;
    }

    public PolledDevice index() {
        return index;
    }

    @Override
    public String kind() {
        return data.kind();
    }

    @Override
    public long capacityBytes() {
        return data.capacityBytes();
    }

    @Override
    public int depth() {
        return data.depth();
    }

    @Override
    public int maxRequests() {
        return data.maxRequests();
    }

    @Override
    public int outstanding() {
        return data.outstanding() + index.outstanding();
    }

    @Override
    public void submit(final IoRequest request) {
        data.submit(request);
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        data.submitBlock(ioId, op, fileOffset, region, regionOffset, lengthBytes);
    }

    @Override
    public int flush() {
        return index.flush() + data.flush();
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        final int fromIndex = index.poll(sink, max);
        return fromIndex == max ? fromIndex : fromIndex + data.poll(sink, max - fromIndex);
    }

    @Override
    public void await(final long timeoutNs) {
        final boolean dataBusy = data.outstanding() > 0;
        final boolean indexBusy = index.outstanding() > 0;
        if (indexBusy && dataBusy) {
            data.flush();
            index.await(Math.min(timeoutNs, BOTH_BUSY_WAIT_NS_MAX));
        } else if (indexBusy) {
            data.flush();
            index.await(timeoutNs);
        } else {
            index.flush();
            data.await(timeoutNs);
        }
    }

    @Override
    public void close() {
        try {
            index.close();
        } finally {
            data.close();
        }
    }

    @Override
    public String toString() {
        return "DevicePair[data " + data + ", index " + index + "]";
    }
}
