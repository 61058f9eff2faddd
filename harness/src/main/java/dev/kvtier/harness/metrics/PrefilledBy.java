package dev.kvtier.harness.metrics;

import java.util.Arrays;

/**
 * Prefilled tokens by why they were not loaded ({@link MissReason}, one component each, in its order).
 *
 * @param firstSight         never stored before
 * @param evicted            evicted from the L2 ring for capacity
 * @param fault              lost to a fault or corruption
 * @param crash              lost to a crash
 * @param notCommitted       claimed but not committed when looked up
 * @param concurrentEviction found by the lookup, evicted before the load brought it
 * @param alwaysComputed     a trailing partial block, and a full hit's last token
 */
public record PrefilledBy(long firstSight, long evicted, long fault, long crash, long notCommitted,
                          long concurrentEviction, long alwaysComputed) {
    /** None. */
    public static final PrefilledBy NONE = new PrefilledBy(0, 0, 0, 0, 0, 0, 0);

    public PrefilledBy {
        if (firstSight < 0 || evicted < 0 || fault < 0 || crash < 0 || notCommitted < 0 || concurrentEviction < 0
            || alwaysComputed < 0) {
            throw new IllegalArgumentException("negative tokens: " + firstSight + ", " + evicted + ", " + fault + ", "
                + crash + ", " + notCommitted + ", " + concurrentEviction + ", " + alwaysComputed);
        }
    }

    /** From tokens indexed by {@link MissReason#index}. */
    public static PrefilledBy of(final long[] byReason) {
        if (byReason.length != MissReason.values().length) {
            throw new IllegalArgumentException("expected " + MissReason.values().length + " reasons, got "
                + Arrays.toString(byReason));
        }
        return new PrefilledBy(byReason[0], byReason[1], byReason[2], byReason[3], byReason[4], byReason[5],
            byReason[6]);
    }

    /** The tokens prefilled for {@code reason}. */
    public long get(final MissReason reason) {
        return switch (reason) {
            case FIRST_SIGHT -> firstSight;
            case EVICTED -> evicted;
            case FAULT -> fault;
            case CRASH -> crash;
            case NOT_COMMITTED -> notCommitted;
            case CONCURRENT_EVICTION -> concurrentEviction;
            case ALWAYS_COMPUTED -> alwaysComputed;
        };
    }

    /** Every prefilled token, whatever its reason. */
    public long total() {
        return firstSight + evicted + fault + crash + notCommitted + concurrentEviction + alwaysComputed;
    }
}
