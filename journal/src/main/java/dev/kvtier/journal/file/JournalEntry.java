package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import java.util.Objects;

/**
 * One event of a journal: its sequence number (from 0), the time it was emitted, and the event. What the event is to
 * replay (an input, a decision or a driver note) is its type: {@link CoreEvent.Input}, {@link CoreEvent.Decision} or
 * {@link CoreEvent.Note}.
 */
public record JournalEntry(long sequence, long timeNs, CoreEvent event) {
    public JournalEntry {
        Objects.requireNonNull(event, "event");
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence " + sequence + " < 0");
        }
    }
}
