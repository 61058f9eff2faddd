package dev.kvtier.core.store;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l2.Checksums;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import java.util.Objects;

/**
 * The parts of one tiered store, handed to each operation so it talks to the part it needs: L1, the I/O queue, the
 * write batches, the checksums, the active loads, and the pump ({@link TieredStore}) to park and resume on.
 */
record Parts(CoreConfig config, EventSink sink, L2Directory directory, L1Cache l1, IoQueue io, WriteBatches writes,
             Checksums checksums, ActiveLoads loads, TieredStore pump) {
    Parts {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(l1, "l1");
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(writes, "writes");
        Objects.requireNonNull(checksums, "checksums");
        Objects.requireNonNull(loads, "loads");
        Objects.requireNonNull(pump, "pump");
    }
}
