package dev.kvtier.core.index;

import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.value.IoOp;
import java.util.function.LongConsumer;

/**
 * How the index reaches its device: one staging buffer, and I/Os that move {@code [0, lengthBytes)} of it to or from
 * {@code offset} (a FLUSH moves nothing). The index keeps at most one I/O in flight. {@code done} gets the device's
 * result: bytes moved, or a negative errno.
 */
public interface IndexIo {
    /** The staging buffer; every I/O is at most its size. */
    MemoryRegion buffer();

    void submit(IoOp op, long offset, long lengthBytes, LongConsumer done);
}
