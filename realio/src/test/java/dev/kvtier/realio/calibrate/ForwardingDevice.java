package dev.kvtier.realio.calibrate;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;

/** A device that hands everything to another: a test's device changes only what it overrides. */
abstract class ForwardingDevice implements PolledDevice {
    protected final PolledDevice inner;

    ForwardingDevice(final PolledDevice inner) {
        this.inner = inner;
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        inner.submitBlock(ioId, op, fileOffset, region, regionOffset, lengthBytes);
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        return inner.poll(sink, max);
    }

    @Override
    public void await(final long timeoutNs) {
        inner.await(timeoutNs);
    }

    @Override
    public int flush() {
        return inner.flush();
    }

    @Override
    public String kind() {
        return inner.kind();
    }

    @Override
    public int depth() {
        return inner.depth();
    }

    @Override
    public int maxRequests() {
        return inner.maxRequests();
    }

    @Override
    public int outstanding() {
        return inner.outstanding();
    }

    @Override
    public long capacityBytes() {
        return inner.capacityBytes();
    }

    @Override
    public void submit(final IoRequest request) {
        throw new UnsupportedOperationException("the meter submits blocks");
    }

    @Override
    public void close() {
        inner.close();
    }
}
