package dev.kvtier.lab.explore;

import dev.kvtier.harness.probe.Probe;
import dev.kvtier.harness.probe.ProbeCatalogue;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Prints an exploration's coverage: every probe some seed reached (in catalogue order) with how many seeds and the
 * first of them, the probes no seed reached, and the required probes no seed reached.
 */
public final class Coverage {
    private Coverage() {}

    /**
     * Prints the coverage; the requirement holds from {@code minSeeds} seeds ({@code seedsRun} ran); {@code shard}
     * when this is one shard of several (the merge decides about requirements).
     */
    public static void print(final PrintStream out, final SortedMap<String, ProbeReach> probes,
                             final List<String> required,
                             final long minSeeds, final long seedsRun, final boolean shard) {
        final List<String> none = new ArrayList<>();
        out.printf("coverage: %d of %d probes reached%n", probes.values().stream().filter(p -> p.seeds() > 0).count(),
            probes.size());
        for (final Probe def : ProbeCatalogue.all()) {
            final ProbeReach p = probes.get(def.name());
            if (p == null || p.seeds() == 0) {
                none.add(def.name());
            } else {
                out.printf("  %-32s %6d seeds  first %d%n", def.name(), p.seeds(), p.firstSeed());
            }
        }
        for (final Map.Entry<String, ProbeReach> e : probes.entrySet()) {
            if (ProbeCatalogue.get(e.getKey()) == null && e.getValue().seeds() == 0) {
                none.add(e.getKey());
            }
        }
        out.println("  reached by no seed: " + (none.isEmpty() ? "none" : String.join(", ", none)));
        final List<String> missed = required.stream().filter(none::contains).toList();
        if (!required.isEmpty()) {
            out.println("  required (" + required.size() + "): " + (missed.isEmpty() ? "all reached"
                : "reached by no seed: " + String.join(", ", missed) + (shard ? " (in this shard; explore merge "
                    + "decides)"
                    : seedsRun < minSeeds ? " (not checked: [coverage] minSeeds is " + minSeeds + ")"
                        : "")));
        }
    }
}
