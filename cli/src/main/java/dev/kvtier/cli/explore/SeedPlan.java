package dev.kvtier.cli.explore;

import dev.kvtier.harness.entropy.SeededEntropy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What one explored seed runs: the user's {@code --set}s plus one value of every swarm key, drawn from the seed's
 * own "swarm" stream in key order (so a seed always draws the same knobs, whatever other seeds drew).
 *
 * @param seed the seed
 * @param sets every override, user's first, as {@code key=value}
 */
public record SeedPlan(long seed, List<String> sets) {
    public SeedPlan {
        sets = List.copyOf(sets);
    }

    public static SeedPlan draw(final long seed, final SortedMap<String, List<String>> swarm,
                                final List<String> userSets) {
        final List<String> sets = new ArrayList<>(userSets);
        final SeededEntropy stream = new SeededEntropy(seed).child("swarm");
        for (final Map.Entry<String, List<String>> e : swarm.entrySet()) {
            final List<String> values = e.getValue();
            sets.add(e.getKey() + "=" + values.get(stream.nextInt(values.size())));
        }
        return new SeedPlan(seed, sets);
    }

    /** The command that reruns this seed alone. */
    public String runCommand(final String scenario) {
        final StringBuilder b = new StringBuilder("./kvtier run ").append(scenario).append(" --seed ").append(seed);
        for (final String s : sets) {
            b.append(" --set ").append(s);
        }
        return b.toString();
    }
}
