package dev.kvtier.journal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * One-line notes a journal carries beside its queue, written after the seal, for what the events alone do not say:
 * {@link #INTERRUPTED}, when SIGINT or SIGTERM stopped the run (where it stopped; the journal is a whole journal of
 * the events up to there), and {@link #VIOLATION}, when the run broke an invariant (which, and at which event).
 * Replay prints them before it replays.
 */
public final class JournalNotes {
    /** The interruption note's file name inside the journal directory. */
    public static final String INTERRUPTED = "kvtier-journal.interrupted";
    /** The violation note's file name inside the journal directory. */
    public static final String VIOLATION = "kvtier-journal.violation";
    /** The longest note read back. */
    private static final int NOTE_BYTES_MAX = 4096;

    private JournalNotes() {}

    /** Writes {@code note} (one line) as {@code name} into {@code dir}, through a temporary file renamed into place. */
    public static void write(final Path dir, final String name, final String note) throws IOException {
        if (note.isEmpty()) {
            throw new IllegalArgumentException("a journal note is one non-empty line");
        }
        final Path temporary = dir.resolve(name + ".tmp");
        Files.writeString(temporary, note.replace('\n', ' ') + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    /** The note {@code name} of the journal in {@code dir}, or empty when there is none (or it cannot be read). */
    public static Optional<String> read(final Path dir, final String name) {
        final Path file = dir.resolve(name);
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
