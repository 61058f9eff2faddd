package dev.kvtier.lab.explore;

import java.util.List;
import java.util.Objects;

/**
 * One seed an exploration ran, as its shard summary keeps it, failing or not: enough to run it again alone and know
 * it is the same run ({@code kvtier run SCENARIO --seed SEED --swarm} draws {@code draws} again and prints
 * {@code digest}).
 *
 * @param seed   the seed
 * @param ok     every invariant held
 * @param digest the run's event digest (over the events up to the failing one, when it failed), or "-" when it
 *               crashed
 * @param draws  the knobs it drew from the scenario's {@code [swarm]}, as {@code key=value} (empty without one)
 */
public record SeedRun(long seed, boolean ok, String digest, List<String> draws) {
    /** No digest: the seed crashed before its report. */
    public static final String NO_DIGEST = "-";

    public SeedRun {
        Objects.requireNonNull(digest, "digest");
        draws = List.copyOf(draws);
    }
}
