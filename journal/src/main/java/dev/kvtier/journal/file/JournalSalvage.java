package dev.kvtier.journal.file;

import dev.kvtier.journal.file.JournalException.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens a journal whose writer was killed (SIGKILL, or a power loss that left its files whole): no seal and no end
 * record. The reader reads every complete, checksummed excerpt (a block of events) and ends cleanly where they end,
 * with {@link JournalReader#salvaged} saying how much it kept; a damaged excerpt followed by others is still
 * corruption. A sealed journal opens as by {@link JournalReader#open}. Refused while its writer still holds the
 * journal's lock (its run is still going).
 */
public final class JournalSalvage {
    private JournalSalvage() {}

    /** A reader of what the journal in {@code dir} kept. */
    public static JournalReader open(final Path dir) throws JournalException {
        if (!Files.isDirectory(dir) || Files.isRegularFile(dir.resolve(SealLayout.FILE_NAME))) {
            return JournalReader.open(dir);
        }
        try {
            if (JournalSeal.queueFiles(dir).isEmpty()) {
                return JournalReader.open(dir);
            }
        } catch (final IOException e) {
            throw new JournalException(Problem.NOT_A_JOURNAL, dir, "cannot read: " + e);
        }
        JournalLock.checkWriterGone(dir);
        return JournalReader.openQueue(dir, null, true);
    }
}
