package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.ForwardingDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;
import java.util.ArrayDeque;

/** A device whose writes complete without being issued: the file keeps whatever it held (here: nothing). */
final class WriteDropping extends ForwardingDevice {
    private final ArrayDeque<long[]> dropped = new ArrayDeque<>();

    WriteDropping(final PolledDevice inner) {
        super(inner);
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        if (op == IoOp.WRITE) {
            dropped.add(new long[] {ioId, lengthBytes});
        } else {
            inner.submitBlock(ioId, op, fileOffset, region, regionOffset, lengthBytes);
        }
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        int n = 0;
        while (!dropped.isEmpty() && n < max) {
            final long[] w = dropped.poll();
            sink.complete(w[0], w[1]);
            n++;
        }
        return n + (n < max ? inner.poll(sink, max - n) : 0);
    }

    @Override
    public void await(final long timeoutNs) {
        if (dropped.isEmpty()) {
            inner.await(timeoutNs);
        }
    }

    @Override
    public String kind() {
        return "write-dropping " + inner.kind();
    }

    @Override
    public int outstanding() {
        return inner.outstanding() + dropped.size();
    }
}
