package dev.kvtier.core.store;

import dev.kvtier.core.index.IndexIo;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.value.IoOp;
import java.util.function.LongConsumer;

/**
 * The index's way to its device through the tiered store's {@link IoQueue}: one staging buffer, and I/Os that take
 * their ids from its sequence (so every I/O of a run has one id) but bypass the {@code concurrentIos} bound
 * and are submitted at once.
 */
final class IndexDeviceIo implements IndexIo {
    private final IoQueue queue;
    private final MemoryRegion buffer;

    IndexDeviceIo(final IoQueue queue, final MemoryRegion buffer) {
        this.queue = queue;
        this.buffer = buffer;
    }

    @Override
    public MemoryRegion buffer() {
        return buffer;
    }

    @Override
    public void submit(final IoOp op, final long offset, final long lengthBytes, final LongConsumer done) {
        if (lengthBytes > buffer.sizeBytes()) {
            throw new IllegalArgumentException("index I/O of " + lengthBytes + " B exceeds the staging buffer of "
                + buffer.sizeBytes() + " B");
        }
        queue.submitIndex(op, offset, lengthBytes, buffer, done);
    }
}
