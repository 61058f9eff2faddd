package dev.kvtier.journal.file;

import java.nio.file.Path;

/**
 * A journal that cannot be written or read as asked: missing, not a journal, truncated, corrupted, or from a newer
 * format. The message is one line that names the path and the problem, for a CLI to print before exiting with 2;
 * it carries no stack trace worth showing a user.
 */
public final class JournalException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What is wrong, so callers and tests can tell the cases apart without parsing the message. */
    public enum Problem {
        /** The path does not exist or is not a directory. */
        MISSING,
        /** The directory holds no journal (empty, or other files). */
        NOT_A_JOURNAL,
        /** The journal ends early: an excerpt or a file is cut off, a sequence number is missing, no end record. */
        TRUNCATED,
        /** A checksum, tag or field does not decode. */
        CORRUPTED,
        /** Written by a newer format version than this reader knows. */
        NEWER_VERSION,
        /** Another writer holds the journal directory. */
        IN_USE,
        /** The journal could not be written (the directory is not empty, or an I/O error). */
        WRITE_FAILED
    }

    private final Problem problem;
    private final transient Path path;

    /** A failure of {@code problem} at {@code path}; {@code detail} completes the line. */
    public JournalException(final Problem problem, final Path path, final String detail) {
        super(path + ": " + describe(problem) + ": " + oneLine(detail), null, false, false);
        this.problem = problem;
        this.path = path;
    }

    /** The kind of failure. */
    public Problem problem() {
        return problem;
    }

    /** The journal directory or file concerned. */
    public Path path() {
        return path;
    }

    private static String describe(final Problem problem) {
        return switch (problem) {
            case MISSING -> "no such journal";
            case NOT_A_JOURNAL -> "not a journal";
            case TRUNCATED -> "truncated journal";
            case CORRUPTED -> "corrupted journal";
            case NEWER_VERSION -> "journal from a newer format version";
            case IN_USE -> "journal in use";
            case WRITE_FAILED -> "cannot write journal";
        };
    }

    private static String oneLine(final String detail) {
        return detail.replace('\n', ' ').replace('\r', ' ');
    }
}
