package dev.kvtier.harness.entropy;

import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.port.Entropy;
import java.util.SplittableRandom;

/**
 * A seeded random stream. A child stream's seed is derived from the parent's seed and the child's name only
 * (XXH3 of both), never from how much the parent has been used, so adding a draw in one component does not change
 * another component's stream.
 */
public final class SeededEntropy implements Entropy {
    private final long seed;
    private final SplittableRandom random;

    public SeededEntropy(final long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    public long seed() {
        return seed;
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public int nextInt(final int bound) {
        return random.nextInt(bound);
    }

    @Override
    public double nextDouble() {
        return random.nextDouble();
    }

    @Override
    public SeededEntropy child(final String name) {
        return new SeededEntropy(childSeed(seed, name));
    }

    /** The named stream {@code stream}, a child of this one (for a numbered life, {@link SeedStream#life}). */
    public SeededEntropy child(final SeedStream stream) {
        if (stream == SeedStream.LIFE) {
            throw new IllegalArgumentException("the life stream is numbered: name it with SeedStream.life(n)");
        }
        return child(stream.streamName());
    }

    /** The seed of child {@code name} of a stream seeded with {@code seed}. */
    public static long childSeed(final long seed, final String name) {
        return Hashing.xxh3_64(seed).hashCharsToLong(name);
    }
}
