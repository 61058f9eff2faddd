package dev.kvtier.realio.testkit;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.value.IoOp;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A device over heap bytes for the core's small second device (the crash-safe index) in tests of the real loop: each
 * I/O moves its data when submitted and its completion is posted to the loop, so it arrives in a later step as a
 * real one would. Every FLUSH succeeds; nothing is lost.
 */
public final class PostedHeapDevice implements Device {
    private final byte[] bytes;
    private final Memory memory;
    private Scheduler loop;
    private Consumer<IoCompletion> target;

    public PostedHeapDevice(final long capacityBytes, final Memory memory) {
        this.bytes = new byte[Math.toIntExact(capacityBytes)];
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    /** Where completions go, through which loop. Call before the first I/O. */
    public void connect(final Scheduler scheduler, final Consumer<IoCompletion> completions) {
        this.loop = Objects.requireNonNull(scheduler, "scheduler");
        this.target = Objects.requireNonNull(completions, "completions");
    }

    @Override
    public long capacityBytes() {
        return bytes.length;
    }

    @Override
    public void submit(final IoRequest request) {
        if (loop == null) {
            throw new IllegalStateException("connect the device before submitting I/O " + request.ioId());
        }
        int at = Math.toIntExact(request.fileOffset());
        for (final IoSegment s : request.segments()) {
            final int length = Math.toIntExact(s.lengthBytes());
            if (request.op() == IoOp.WRITE) {
                memory.read(s.region(), s.regionOffset(), bytes, at, length);
            } else {
                memory.write(s.region(), s.regionOffset(), bytes, at, length);
            }
            at += length;
        }
        final IoCompletion done = new IoCompletion(request.ioId(), request.lengthBytes());
        loop.post(() -> target.accept(done));
    }
}
