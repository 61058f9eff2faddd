package dev.kvtier.journal.codec;

/**
 * Bytes that do not decode to an event: a bad tag, a field out of range, a truncated field, trailing bytes. An
 * operating error of the input (a corrupted journal), so it is checked; the journal reader turns it into a
 * {@code JournalException} naming the file and sequence number.
 */
public final class EventFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** A one-line description of what did not decode. */
    public EventFormatException(final String message) {
        super(message, null, false, false);
    }
}
