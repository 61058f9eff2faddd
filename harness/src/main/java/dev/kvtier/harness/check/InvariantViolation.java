package dev.kvtier.harness.check;

/**
 * An invariant failed: the run stops here. Carries the invariant, the event sequence number, the kind of that event
 * (its record's name, which {@code kvtier explore merge} groups failures by) and the detail.
 */
public final class InvariantViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Invariant invariant;
    private final long sequence;
    private final String eventKind;

    /** {@code eventKind} is null when no event was checked yet. */
    public InvariantViolation(final Invariant invariant, final long sequence, final String eventKind,
                              final String detail) {
        super("invariant " + invariant.number() + " (" + invariant.name() + ": " + invariant.title()
            + ") violated at event " + sequence + (eventKind == null ? "" : " (" + eventKind + ")") + ": " + detail);
        this.invariant = invariant;
        this.sequence = sequence;
        this.eventKind = eventKind;
    }

    public Invariant invariant() {
        return invariant;
    }

    public long sequence() {
        return sequence;
    }

    /** The record name of the event checked when the invariant failed, or null before the first event. */
    public String eventKind() {
        return eventKind;
    }
}
