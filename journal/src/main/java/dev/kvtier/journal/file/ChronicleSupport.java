package dev.kvtier.journal.file;

import java.nio.file.Path;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;

/**
 * The one place that builds Chronicle queues. Its static initializer disables Chronicle's analytics before any
 * Chronicle class is initialized (the build also passes {@code -Dchronicle.analytics.disable=true}; this is the
 * safety net for other launchers). The queue's clock is fixed and the roll cycle is daily with room for 2^37
 * messages, so a run never rolls and the same run writes the same file names and bytes.
 */
final class ChronicleSupport {
    static {
        System.setProperty("chronicle.analytics.disable", "true");
    }

    private ChronicleSupport() {}

    /** Opens the journal queue in {@code dir}, for appending or read-only. */
    static SingleChronicleQueue open(final Path dir, final boolean readOnly) {
        return SingleChronicleQueueBuilder.binary(dir)
            .rollCycle(LargeRollCycles.LARGE_DAILY)
            .blockSize(ExcerptLayout.BLOCK_BYTES)
            .timeProvider(() -> ExcerptLayout.FIXED_TIME_MS)
            .readOnly(readOnly)
            .build();
    }
}
