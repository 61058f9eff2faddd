package dev.kvtier.core.store;

import dev.kvtier.core.port.IoRequest;
import java.util.function.LongConsumer;

/** What a data I/O in flight belongs to, so its completion can be dispatched with an exhaustive switch. */
sealed interface IoTask {
    IoRequest request();

    /** A grouped write batch; {@code owner} finishes it. */
    record Write(IoRequest request, WriteBatch batch, WriteBatches owner) implements IoTask {}

    /** One read of a load, landing in an L1 slice. */
    record Read(IoRequest request, LoadOp load, LoadOp.Read read) implements IoTask {}

    /** A FLUSH of the data device (durable commits, shutdown); {@code done} gets the result. */
    record Flush(IoRequest request, LongConsumer done) implements IoTask {}
}
