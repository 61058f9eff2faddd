package dev.kvtier.property.support;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The suite's budget. The default run is sized for CI (at least 20,000 chain actions, a few minutes);
 * {@code -Dkvtier.deep=true} multiplies every property's tries by {@link #DEEP_FACTOR} for nightly runs. Counts
 * the actions actually executed so a run can report what it explored.
 */
public final class Budget {
    /** Tries are multiplied by this under {@code -Dkvtier.deep=true}. */
    public static final int DEEP_FACTOR = 10;
    /** Tries are multiplied by this under {@code -Dkvtier.quick=true} (the mutation-testing profile). */
    public static final double QUICK_FACTOR = 0.1;

    /** The seed of quick (mutation-testing) runs, unless {@code -Dkvtier.quick.seed} names another. */
    public static final String QUICK_SEED = "20261130";

    private static final AtomicLong CHAIN_ACTIONS = new AtomicLong();
    private static final AtomicLong CHAINS = new AtomicLong();
    private static final AtomicLong COMPONENT_STEPS = new AtomicLong();

    private Budget() {}

    public static boolean deep() {
        return Boolean.getBoolean("kvtier.deep");
    }

    public static boolean quick() {
        return Boolean.getBoolean("kvtier.quick");
    }

    /**
     * The seed of quick runs: {@link #QUICK_SEED} or {@code -Dkvtier.quick.seed} (running the mutation profile under
     * a second seed shows which mutants the properties find only by luck).
     */
    public static String quickSeed() {
        return System.getProperty("kvtier.quick.seed", QUICK_SEED);
    }

    /** The tries to run for a property annotated with {@code declared} tries. */
    public static int tries(final int declared) {
        if (declared <= 0) {
            throw new IllegalArgumentException("declared tries must be positive, got " + declared);
        }
        if (deep()) {
            return Math.multiplyExact(declared, DEEP_FACTOR);
        }
        if (quick()) {
            return Math.max(1, (int) (declared * QUICK_FACTOR));
        }
        return declared;
    }

    public static void chainAction() {
        CHAIN_ACTIONS.incrementAndGet();
    }

    public static void chainStarted() {
        CHAINS.incrementAndGet();
    }

    public static void componentSteps(final int steps) {
        COMPONENT_STEPS.addAndGet(steps);
    }

    public static long chainActions() {
        return CHAIN_ACTIONS.get();
    }

    /** One line for the test log. */
    public static String summary() {
        return "kvtier property budget: " + CHAIN_ACTIONS.get() + " chain actions in " + CHAINS.get()
            + " chains, " + COMPONENT_STEPS.get() + " component steps (mode "
            + (deep() ? "deep x" + DEEP_FACTOR : quick() ? "quick" : "default") + ")";
    }
}
