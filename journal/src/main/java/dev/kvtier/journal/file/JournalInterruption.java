package dev.kvtier.journal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The note a journal carries when its run was interrupted (SIGINT or SIGTERM): one line in
 * {@code kvtier-journal.interrupted} beside the queue, written after the seal, saying where the run stopped. The
 * journal itself is a whole journal of the events up to there (sealed, with its end record and digest); replay reads
 * it as any other and says it was interrupted.
 */
public final class JournalInterruption {
    /** The note's file name inside the journal directory. */
    public static final String FILE_NAME = "kvtier-journal.interrupted";
    /** The longest note read back. */
    private static final int NOTE_BYTES_MAX = 4096;

    private JournalInterruption() {}

    /** Writes {@code note} (one line) into {@code dir}, through a temporary file renamed into place. */
    public static void write(final Path dir, final String note) throws IOException {
        if (note.indexOf('\n') >= 0 || note.isEmpty()) {
            throw new IllegalArgumentException("an interruption note is one non-empty line");
        }
        final Path temporary = dir.resolve(FILE_NAME + ".tmp");
        Files.writeString(temporary, note + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
    }

    /** The note of the journal in {@code dir}, or empty when its run was not interrupted (or it cannot be read). */
    public static Optional<String> read(final Path dir) {
        final Path file = dir.resolve(FILE_NAME);
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > NOTE_BYTES_MAX) {
                return Optional.empty();
            }
            final String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(text.replace('\n', ' '));
        } catch (final IOException e) {
            return Optional.empty();
        }
    }
}
