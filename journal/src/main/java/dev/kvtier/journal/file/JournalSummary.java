package dev.kvtier.journal.file;

import java.util.Objects;

/**
 * What {@link JournalReader#verify} found in a complete, valid journal: its header, how many events, the time span,
 * and the {@link dev.kvtier.journal.codec.EventDigest} of its events (equal to the run report's {@code eventDigest}
 * when the report digested the same events at the same times).
 */
public record JournalSummary(JournalHeader header, long eventCount, long firstTimeNs, long lastTimeNs,
                             String eventDigest) {
    public JournalSummary {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(eventDigest, "eventDigest");
        if (eventCount < 0 || lastTimeNs < firstTimeNs) {
            throw new IllegalArgumentException("bad summary: " + eventCount + " events, " + firstTimeNs + ".."
                + lastTimeNs);
        }
    }
}
