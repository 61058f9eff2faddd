package dev.kvtier.lab.explore;

import dev.kvtier.lab.ExitCodes;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The report {@code kvtier explore merge} writes (JSON; {@link MergeMarkdown} renders it): what the shards ran
 * together and found.
 *
 * @param scenario       the scenario every shard ran
 * @param scenarioDigest its digest
 * @param sets           the user's overrides
 * @param code           the commit every shard was built from
 * @param shards         one line per summary, in the order given
 * @param missing        shards of a planned range that no summary covers, e.g. {@code shard 2/4 of seeds 1..1000}
 * @param notRun         stopped shards' planned seeds after the seed they stopped at
 * @param seedsPlanned   seeds the summaries' shards planned
 * @param seedsRun       seeds run, over every shard
 * @param seedsMissing   seeds of the missing shards
 * @param failingSeeds   seeds that failed
 * @param wallSeconds    wall-clock time, summed over shards
 * @param failures       failing seeds grouped by invariant and event, most seeds first
 * @param probes         every probe with the seeds that reached it, over every shard
 * @param required       the probes {@code --require} named and those the scenario requires, with their seeds
 * @param requirementNote why the scenario's required probes were not checked (too few seeds), or null
 */
public record MergeReport(String scenario, String scenarioDigest, List<String> sets, String code,
                          List<ShardLine> shards, List<String> missing, List<String> notRun, long seedsPlanned,
                          long seedsRun, long seedsMissing, long failingSeeds, double wallSeconds,
                          List<FailureGroup> failures, SortedMap<String, ProbeReach> probes,
                          SortedMap<String, ProbeReach> required, String requirementNote) {
    public MergeReport {
        sets = List.copyOf(sets);
        shards = List.copyOf(shards);
        missing = List.copyOf(missing);
        notRun = List.copyOf(notRun);
        failures = List.copyOf(failures);
        probes = Collections.unmodifiableSortedMap(new TreeMap<>(probes));
        required = Collections.unmodifiableSortedMap(new TreeMap<>(required));
        if (seedsRun > seedsPlanned) {
            throw new IllegalArgumentException(seedsRun + " seeds run of " + seedsPlanned + " planned");
        }
    }

    /**
     * One summary, as merged.
     *
     * @param file      the summary file
     * @param range     its planned seeds
     * @param seedsRun  how many it ran
     * @param stoppedAt where it stopped, or null
     * @param failures  how many failing seeds it found
     */
    public record ShardLine(String file, SeedSet range, long seedsRun, Long stoppedAt, int failures,
                            boolean interrupted) {}

    /**
     * The failing seeds that broke one invariant at one kind of event.
     *
     * @param invariant what broke
     * @param event     the event kind at which it broke
     * @param seeds     every such seed, ascending
     * @param first     the failure of the lowest seed: its message, reproduce command, swarm draws and journal
     */
    public record FailureGroup(String invariant, String event, List<Long> seeds, Failure first) {
        public FailureGroup {
            seeds = List.copyOf(seeds);
            if (seeds.isEmpty() || seeds.getFirst() != first.seed()) {
                throw new IllegalArgumentException("a failure group starts with its first failure's seed");
            }
        }

        /** {@code invariant at event}, as {@link Failure#signature}. */
        public String signature() {
            return invariant + " at " + event;
        }
    }

    /** Required probes that no shard reached. */
    public List<String> unreached() {
        return required.entrySet().stream().filter(e -> e.getValue().seeds() == 0).map(e -> e.getKey()).toList();
    }

    /**
     * What merge exits with: 3 when a seed crashed, else 1 when an invariant failed, else 2 when shards are missing
     * or were interrupted (unless allowed), else 4 when a required probe was reached by no shard, else 0.
     */
    public int exitCode(final boolean allowMissing) {
        if (failures.stream().anyMatch(g -> g.first().exitCode() == ExitCodes.CRASH)) {
            return ExitCodes.CRASH;
        }
        if (!failures.isEmpty()) {
            return ExitCodes.INVARIANT;
        }
        if ((!missing.isEmpty() || shards.stream().anyMatch(ShardLine::interrupted)) && !allowMissing) {
            return ExitCodes.BAD_INPUT;
        }
        return unreached().isEmpty() ? ExitCodes.OK : ExitCodes.GATE;
    }
}
