package dev.kvtier.lab.crash;

import dev.kvtier.lab.OptionSpelling;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.realio.files.HeaderLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A bug planted between a kill and its recovery, to show that the campaign fails when recovery is broken (a canary,
 * as {@code CanaryTest} is for the simulator's checkers): {@link #WIPE_INDEX_LOG} zeroes the index file's log area,
 * as if the store had acknowledged durable commits whose records never reached the file. Recovery then finds the
 * newest checkpoint and nothing after it, and every durable commit acknowledged after that checkpoint is lost.
 *
 * <p>Zeroing is a process's write to the page cache, which a SIGKILL would keep: what a kill campaign can catch is a
 * record never written, not a flush left out (a flush matters only at a power loss, which a kill is not).
 */
public enum PlantedBug {
    /** Nothing planted. */
    NONE,
    /** The index file's log area zeroed after the kill. */
    WIPE_INDEX_LOG;

    /** The option's spelling ({@link OptionSpelling}). */
    public String option() {
        return OptionSpelling.of(this);
    }

    /** Parses the option's spelling; the message lists the choices. */
    public static PlantedBug parse(final String text) {
        return OptionSpelling.parse(PlantedBug.class, "--plant", text);
    }

    /** Plants the bug in the index file at {@code indexPath} of a core of {@code config}. */
    void plant(final Path indexPath, final CoreConfig config) throws IOException {
        if (this == NONE) {
            return;
        }
        final IndexLayout layout = KvServer.indexLayout(config);
        try (FileChannel ch = FileChannel.open(indexPath, StandardOpenOption.WRITE)) {
            final ByteBuffer zeros = ByteBuffer.allocate(Math.toIntExact(layout.logBytes()));
            long at = HeaderLayout.BYTES + layout.logOffset();
            while (zeros.hasRemaining()) {
                at += ch.write(zeros, at);
            }
            ch.force(false);
        }
    }
}
