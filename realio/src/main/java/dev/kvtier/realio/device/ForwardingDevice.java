package dev.kvtier.realio.device;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.memory.NativeRegion;
import java.util.Objects;

/**
 * A device that hands everything to another; a wrapper (a recorder, a test's fault or watch) overrides only what it
 * changes.
 */
public abstract class ForwardingDevice implements PolledDevice {
    /** The device everything goes to. */
    protected final PolledDevice inner;

    protected ForwardingDevice(final PolledDevice inner) {
        this.inner = Objects.requireNonNull(inner, "device");
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
        inner.submit(request);
    }

    @Override
    public void close() {
        inner.close();
    }
}
