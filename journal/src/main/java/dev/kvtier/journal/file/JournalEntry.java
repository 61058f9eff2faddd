package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import java.util.Objects;

/** One event of a journal: its sequence number (from 0), the time it was emitted, and the event. */
public record JournalEntry(long sequence, long timeNs, CoreEvent event) {
    public JournalEntry {
        Objects.requireNonNull(event, "event");
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence " + sequence + " < 0");
        }
    }

    /** What the event is to replay: an input to feed, a decision to compare, or a driver annotation to skip. */
    public CoreEvent.Kind kind() {
        return CoreEvent.kindOf(event);
    }

    /** True for an input replay feeds to a fresh core. */
    public boolean isInput() {
        return CoreEvent.isInput(event);
    }
}
