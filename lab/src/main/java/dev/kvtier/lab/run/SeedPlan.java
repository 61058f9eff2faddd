package dev.kvtier.lab.run;

import dev.kvtier.harness.entropy.SeedStream;
import dev.kvtier.harness.entropy.SeededEntropy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What one explored seed runs: the user's {@code --set}s plus one value of every swarm key, drawn from the seed's
 * own "swarm" stream in key order (so a seed always draws the same knobs, whatever other seeds drew).
 *
 * @param seed     the seed
 * @param userSets the user's overrides, as {@code key=value}
 * @param draws    one {@code key=value} per swarm key, in key order
 */
public record SeedPlan(long seed, List<String> userSets, List<String> draws) {
    public SeedPlan {
        userSets = List.copyOf(userSets);
        draws = List.copyOf(draws);
    }

    public static SeedPlan draw(final long seed, final SortedMap<String, List<String>> swarm,
                                final List<String> userSets) {
        final List<String> draws = new ArrayList<>();
        final SeededEntropy stream = new SeededEntropy(seed).child(SeedStream.SWARM);
        for (final Map.Entry<String, List<String>> e : swarm.entrySet()) {
            final List<String> values = e.getValue();
            draws.add(e.getKey() + "=" + values.get(stream.nextInt(values.size())));
        }
        return new SeedPlan(seed, userSets, draws);
    }

    /** Every override, the user's first, as {@code key=value}. */
    public List<String> sets() {
        final List<String> sets = new ArrayList<>(userSets);
        sets.addAll(draws);
        return List.copyOf(sets);
    }

    /** The command that reruns this seed alone. */
    public String runCommand(final String scenario) {
        final StringBuilder b = new StringBuilder("./kvtier run ").append(scenario).append(" --seed ").append(seed);
        for (final String s : sets()) {
            b.append(" --set ").append(s);
        }
        return b.toString();
    }
}
