package dev.kvtier.harness.check;

/** An invariant failed: the run stops here. Carries the invariant, the event sequence number and the detail. */
public final class InvariantViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Invariant invariant;
    private final long sequence;

    public InvariantViolation(final Invariant invariant, final long sequence, final String detail) {
        super("invariant " + invariant.number() + " (" + invariant.name() + ": " + invariant.title()
            + ") violated at event " + sequence + ": " + detail);
        this.invariant = invariant;
        this.sequence = sequence;
    }

    public Invariant invariant() {
        return invariant;
    }

    public long sequence() {
        return sequence;
    }
}
