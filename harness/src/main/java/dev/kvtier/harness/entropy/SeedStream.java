package dev.kvtier.harness.entropy;

import dev.kvtier.core.port.Entropy;

/**
 * Every named seed stream of kvtier, in one place: a run's root entropy ({@code new SeededEntropy(seed)}, one per run)
 * and the tree of child streams derived from it by name ({@link SeededEntropy#childSeed}). A stream's values depend
 * only on its parent's seed and its name, so these names are part of every run's digest: renaming one changes every
 * run that draws from it (a test pins them).
 *
 * <p>The tree, parent first:
 * <pre>
 *   root ── workload ── tokens, keys          the workload driver (both worlds)
 *        ── faults                            the simulated data device's injected faults
 *        ── index-faults                      the simulated index device's injected faults
 *        ── reorder                           the simulated data device's completion delays (sim.reorder)
 *        ── index-reorder                     the simulated index device's completion delays (sim.reorder)
 *        ── crash-points                      the crash points drawn from [0, crashWithinEvents)
 *        ── crash-during-shutdown             which of the eight events after the final shutdown's request crashes
 *        ── crash ── data, index              the first crash's fate of unflushed pages, per device
 *                 ── life-N ── data, index    the fate at crash N - 1 (N from 2), per device
 *        ── swarm                             an explored seed's draw of the swarm's knobs
 * </pre>
 * The names live in harness, beside {@link SeededEntropy}: it is the lowest module that the simulator, the real
 * world and the tools above both reach (core makes no random decisions and names no stream).
 */
public enum SeedStream {
    /** The workload driver's stream, a child of the root: requests, arrivals and prompts. */
    WORKLOAD("workload"),
    /** The prompts' token stream, a child of {@link #WORKLOAD}. */
    TOKENS("tokens"),
    /** The prompts' key stream, a child of {@link #WORKLOAD}. */
    KEYS("keys"),
    /** The simulated data device's injected faults, a child of the root. */
    FAULTS("faults"),
    /** The simulated index device's injected faults, a child of the root. */
    INDEX_FAULTS("index-faults"),
    /** The simulated data device's completion delays when it reorders I/O, a child of the root. */
    REORDER("reorder"),
    /** The simulated index device's completion delays when it reorders I/O, a child of the root. */
    INDEX_REORDER("index-reorder"),
    /** The crash points drawn per seed, a child of the root. */
    CRASH_POINTS("crash-points"),
    /** The crash during the final shutdown, a child of the root. */
    CRASH_DURING_SHUTDOWN("crash-during-shutdown"),
    /** The first crash's stream, a child of the root; later crashes draw from its {@link #LIFE} children. */
    CRASH("crash"),
    /** The prefix of a later crash's stream, a child of {@link #CRASH}: {@link #life(int)} names it. */
    LIFE("life-"),
    /** A crash's fate of the data device's unflushed pages, a child of a crash stream. */
    CRASH_DATA("data"),
    /** A crash's fate of the index device's unflushed pages, a child of a crash stream. */
    CRASH_INDEX("index"),
    /** An explored seed's draws of the swarm's knobs, a child of the root. */
    SWARM("swarm");

    private final String streamName;

    SeedStream(final String streamName) {
        this.streamName = streamName;
    }

    /** The name the child derivation hashes (for {@link #LIFE}, the prefix of {@link #life(int)}). */
    public String streamName() {
        return streamName;
    }

    /** This stream, as the child of {@code parent} (any {@link Entropy}, so the workload driver's too). */
    public Entropy of(final Entropy parent) {
        if (this == LIFE) {
            throw new IllegalArgumentException("the life stream is numbered: name it with life(n)");
        }
        return parent.child(streamName);
    }

    /** The name of life {@code life}'s crash stream, a child of {@link #CRASH}: {@code life-2} for the second crash. */
    public static String life(final int life) {
        if (life < 2) {
            throw new IllegalArgumentException("the first crash draws from the crash stream itself; life must be >= 2,"
                + " got " + life);
        }
        return LIFE.streamName + life;
    }
}
