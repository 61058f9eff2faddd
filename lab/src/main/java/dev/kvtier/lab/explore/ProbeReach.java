package dev.kvtier.lab.explore;

/**
 * How often a coverage probe (of the harness's catalogue, {@code kvtier probes}) was reached over an exploration: in
 * how many seeds, and the lowest of them. A seed reaches a probe when its run reached it at least once.
 *
 * @param seeds     seeds that reached it
 * @param firstSeed the lowest of them, or null when none did
 */
public record ProbeReach(long seeds, Long firstSeed) {
    /** Reached by no seed. */
    public static final ProbeReach NONE = new ProbeReach(0, null);

    public ProbeReach {
        if (seeds < 0 || (seeds == 0) != (firstSeed == null)) {
            throw new IllegalArgumentException("a probe reached by " + seeds + " seeds has first seed " + firstSeed);
        }
    }

    /** This probe, also reached by {@code seed}. */
    public ProbeReach plus(final long seed) {
        return new ProbeReach(seeds + 1, firstSeed == null ? seed : Math.min(firstSeed, seed));
    }

    /** This probe and {@code other} together (disjoint seeds). */
    public ProbeReach plus(final ProbeReach other) {
        if (other.firstSeed == null) {
            return this;
        }
        return new ProbeReach(seeds + other.seeds, firstSeed == null ? other.firstSeed
            : Math.min(firstSeed, other.firstSeed));
    }
}
