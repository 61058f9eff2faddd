package dev.kvtier.core.port;

/**
 * Seeded randomness. Everything random in kvtier comes from one root seed split into named child streams, so one
 * seed gives one run. The core itself makes no random decisions; workload drivers and fault injectors do.
 */
public interface Entropy {
    /** A uniformly distributed long. */
    long nextLong();

    /** A uniformly distributed int in {@code [0, bound)}; {@code bound} positive. */
    int nextInt(int bound);

    /** A uniformly distributed double in {@code [0, 1)}. */
    double nextDouble();

    /** An independent child stream, derived from this one's seed and {@code name} only. */
    Entropy child(String name);
}
