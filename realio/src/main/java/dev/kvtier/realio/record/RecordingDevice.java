package dev.kvtier.realio.record;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.ForwardingDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A real device that logs every write and flush it is given, and every completion of those, to an {@link IoLog}
 * before passing it on: the write's contents are copied from the run's native memory at submission. Reads pass
 * through unlogged. Everything else is the wrapped device's own; the wrapper adds a copy per written byte and nothing
 * to what reaches the disk.
 */
public final class RecordingDevice extends ForwardingDevice {
    private final DeviceRole role;
    private final IoLog log;
    private final NativeMemory memory;

    public RecordingDevice(final PolledDevice device, final DeviceRole role, final IoLog log,
                           final NativeMemory memory) {
        super(device);
        this.role = Objects.requireNonNull(role, "role");
        this.log = Objects.requireNonNull(log, "log");
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    /** The device it logs for. */
    public PolledDevice device() {
        return inner;
    }

    @Override
    public void submit(final IoRequest request) {
        if (request.op() == IoOp.FLUSH) {
            log.flush(role, request.ioId());
        } else if (request.op() == IoOp.WRITE) {
            final List<IoSegment> segs = request.segments();
            final MemorySegment[] from = new MemorySegment[segs.size()];
            final long[] at = new long[segs.size()];
            final long[] lengths = new long[segs.size()];
            for (int i = 0; i < segs.size(); i++) {
                from[i] = memory.resolve(segs.get(i).region()).segment();
                at[i] = segs.get(i).regionOffset();
                lengths[i] = segs.get(i).lengthBytes();
            }
            log.write(role, request.ioId(), request.fileOffset(), from, at, lengths);
        }
        inner.submit(request);
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        if (op == IoOp.FLUSH) {
            log.flush(role, ioId);
        } else if (op == IoOp.WRITE) {
            log.write(role, ioId, fileOffset, new MemorySegment[] {region.segment()}, new long[] {regionOffset},
                new long[] {lengthBytes});
        }
        inner.submitBlock(ioId, op, fileOffset, region, regionOffset, lengthBytes);
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        return inner.poll((ioId, result) -> {
            log.completed(role, ioId, result);
            sink.complete(ioId, result);
        }, max);
    }

    @Override
    public String toString() {
        return "RecordingDevice[" + role + ", " + inner + "]";
    }
}
