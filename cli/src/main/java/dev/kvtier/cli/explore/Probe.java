package dev.kvtier.cli.explore;

/**
 * How often a probe was reached: in how many seeds, and the lowest of them. Until the coverage-probe catalogue exists
 * the probes are the core's event kinds (the {@code CoreEvent} record names): a kind is reached by a seed whose run
 * emitted at least one event of it.
 *
 * @param seeds     seeds that reached it
 * @param firstSeed the lowest of them, or null when none did
 */
public record Probe(long seeds, Long firstSeed) {
    /** Reached by no seed. */
    public static final Probe NONE = new Probe(0, null);

    public Probe {
        if (seeds < 0 || (seeds == 0) != (firstSeed == null)) {
            throw new IllegalArgumentException("a probe reached by " + seeds + " seeds has first seed " + firstSeed);
        }
    }

    /** This probe, also reached by {@code seed}. */
    public Probe plus(final long seed) {
        return new Probe(seeds + 1, firstSeed == null ? seed : Math.min(firstSeed, seed));
    }

    /** This probe and {@code other} together (disjoint seeds). */
    public Probe plus(final Probe other) {
        if (other.firstSeed == null) {
            return this;
        }
        return new Probe(seeds + other.seeds, firstSeed == null ? other.firstSeed
            : Math.min(firstSeed, other.firstSeed));
    }
}
