package dev.kvtier.realio.calibrate;

/**
 * How the host calibration times one of its measurements: untimed runs until they add up to {@code warmupNs} (the
 * JIT compiles what the measurement runs), then the best of {@code rounds + 2} timed runs.
 *
 * @param rounds   timed rounds (two more are run)
 * @param warmupNs how long the untimed runs last at least, in the measurement's own nanoseconds
 */
record Warmed(int rounds, long warmupNs) {
    /** One run of a measurement; its duration in nanoseconds. */
    interface Timed {
        long runNs();
    }

    Warmed {
        if (rounds < 1 || warmupNs < 0) {
            throw new IllegalArgumentException("a measurement needs a round and a warm-up of 0 ns or more: " + rounds
                + ", " + warmupNs + " ns");
        }
    }

    /** The best (shortest) of the timed runs of {@code t}, after its warm-up. */
    double best(final Timed t) {
        long spent = 0;
        while (spent < warmupNs) {
            spent += Math.max(1, t.runNs());
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < rounds + 2; i++) {
            best = Math.min(best, t.runNs());
        }
        return best;
    }
}
