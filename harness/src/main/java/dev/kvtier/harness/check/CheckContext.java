package dev.kvtier.harness.check;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;

/** What a checker knows besides the event: the configuration, the event's sequence and time. */
public final class CheckContext {
    private final CoreConfig config;
    long sequence;
    long timeNs;
    /** The event being checked (the last one, between events and at the end), or null before the first. */
    CoreEvent event;

    public CheckContext(final CoreConfig config) {
        this.config = config;
    }

    public CoreConfig config() {
        return config;
    }

    public long sequence() {
        return sequence;
    }

    public long timeNs() {
        return timeNs;
    }

    /** Stops the run: {@code invariant} failed at the current event. */
    public InvariantViolation fail(final Invariant invariant, final String detail) {
        throw new InvariantViolation(invariant, sequence, event == null ? null : event.getClass().getSimpleName(),
            detail);
    }
}
