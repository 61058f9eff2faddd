package dev.kvtier.sim.run;

import dev.kvtier.harness.entropy.SeedStream;
import dev.kvtier.harness.entropy.SeededEntropy;

/**
 * The seeded streams a crash draws from, per life of the core: what each device's unflushed pages become. The first
 * crash draws from the run's {@link SeedStream#CRASH} stream itself (as it always has), crash {@code n + 1} from that
 * stream's child {@code life-(n + 1)}; each device then from its own child of that ({@link SeedStream#CRASH_DATA},
 * {@link SeedStream#CRASH_INDEX}), so how one crash drew does not change the next.
 */
final class CrashStreams {
    private final SeededEntropy first;

    /** The streams of a run whose root entropy is {@code root}. */
    CrashStreams(final SeededEntropy root) {
        this.first = root.child(SeedStream.CRASH);
    }

    /** The data device's stream at the crash that follows {@code crashesSoFar} crashes. */
    SeededEntropy data(final int crashesSoFar) {
        return life(crashesSoFar).child(SeedStream.CRASH_DATA);
    }

    /** The index device's stream at the crash that follows {@code crashesSoFar} crashes. */
    SeededEntropy index(final int crashesSoFar) {
        return life(crashesSoFar).child(SeedStream.CRASH_INDEX);
    }

    private SeededEntropy life(final int crashesSoFar) {
        if (crashesSoFar < 0) {
            throw new IllegalArgumentException("crashes so far must not be negative, got " + crashesSoFar);
        }
        return crashesSoFar == 0 ? first : first.child(SeedStream.life(crashesSoFar + 1));
    }
}
