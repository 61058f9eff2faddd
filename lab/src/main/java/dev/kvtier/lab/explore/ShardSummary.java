package dev.kvtier.lab.explore;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.journal.replay.ConfigDigest;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one shard of an exploration ran and found ({@code kvtier explore --summary FILE}), for
 * {@code kvtier explore merge}. A shard that stopped at its first failure covers only its planned seeds up to
 * {@code stoppedAt}; one that ran them all has {@code stoppedAt} null.
 *
 * @param format         {@link #FORMAT}
 * @param scenario       the scenario's name
 * @param scenarioDigest {@link #digest} of the scenario with the user's overrides (shards of one exploration agree)
 * @param sets           the user's {@code --set}s
 * @param code           the commit the CLI was built from ({@code BuildInfo}), or "unknown"
 * @param range          the seeds this shard planned
 * @param keepGoing      whether it went on past failures ({@code --keep-going})
 * @param seedsPlanned   how many seeds it planned
 * @param seedsRun       how many it ran
 * @param stoppedAt      the failing seed it stopped at, or null when it ran every planned seed
 * @param wallSeconds    wall-clock time of the seeds
 * @param failures       every failing seed it ran, in seed order
 * @param seeds          every seed it ran, in seed order: passed or failed, its event digest and its swarm draws
 *                       (empty in summaries written before kvtier kept them)
 * @param probes         every coverage probe of the catalogue by name, with the seeds that reached it
 * @param required       the probes the scenario requires ({@code [coverage] required}): merge fails (exit 4) when no
 *                       shard reached one, once the shards merged ran at least {@code requiredMinSeeds} seeds
 * @param requiredMinSeeds the scenario's {@code [coverage] minSeeds} (1 when absent)
 * @param interrupted    the shard was interrupted (SIGINT or SIGTERM) after {@code stoppedAt}, the last seed it ran:
 *                       a partial summary, which merge counts and shows as such
 */
public record ShardSummary(int format, String scenario, String scenarioDigest, List<String> sets, String code,
                           SeedSet range, boolean keepGoing, long seedsPlanned, long seedsRun, Long stoppedAt,
                           double wallSeconds, List<Failure> failures, List<SeedRun> seeds,
                           SortedMap<String, ProbeReach> probes,
                           List<String> required, long requiredMinSeeds, boolean interrupted) {
    /** The summary format this CLI writes and reads (2: probes are the coverage catalogue, with required ones). */
    public static final int FORMAT = 2;
    private static final JsonMapper READER = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public ShardSummary {
        if (format != FORMAT) {
            throw new IllegalArgumentException("summary format " + format + ", this kvtier reads " + FORMAT);
        }
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(scenarioDigest, "scenarioDigest");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(range, "range");
        sets = List.copyOf(sets);
        failures = List.copyOf(failures);
        seeds = seeds == null ? List.of() : List.copyOf(seeds);
        if (!seeds.isEmpty() && seeds.size() != seedsRun) {
            throw new IllegalArgumentException("the summary lists " + seeds.size() + " seeds, but ran " + seedsRun);
        }
        probes = Collections.unmodifiableSortedMap(new TreeMap<>(probes));
        required = required == null ? List.of() : List.copyOf(required);
        requiredMinSeeds = Math.max(1, requiredMinSeeds);
        for (final String name : required) {
            if (!probes.containsKey(name)) {
                throw new IllegalArgumentException("required probe " + name + " is not among the summary's probes");
            }
        }
        if (interrupted && stoppedAt == null) {
            throw new IllegalArgumentException("an interrupted summary names the last seed it ran (stoppedAt)");
        }
        if (seedsPlanned != range.planned()) {
            throw new IllegalArgumentException(range + " plans " + range.planned() + " seeds, not " + seedsPlanned);
        }
        final long covered = stoppedAt == null ? seedsPlanned : range.plannedUpTo(stoppedAt);
        if (stoppedAt != null && !range.contains(stoppedAt)) {
            throw new IllegalArgumentException(range + " does not plan seed " + stoppedAt + " (stoppedAt)");
        }
        if (seedsRun != covered) {
            throw new IllegalArgumentException(range + " ran " + seedsRun + " seeds, but covers " + covered);
        }
        for (final Failure f : failures) {
            if (!range.contains(f.seed()) || (stoppedAt != null && f.seed() > stoppedAt)) {
                throw new IllegalArgumentException(range + " did not run seed " + f.seed() + " that it says failed");
            }
        }
        for (final Map.Entry<String, ProbeReach> p : probes.entrySet()) {
            if (p.getValue().seeds() > seedsRun) {
                throw new IllegalArgumentException("probe " + p.getKey() + " reached by more seeds than ran");
            }
        }
    }

    /** The last seed this shard ran, or null when it ran none. */
    public Long lastRun() {
        if (seedsRun == 0) {
            return null;
        }
        return stoppedAt != null ? stoppedAt : range.last();
    }

    /**
     * The scenario's identity for merging: {@link ConfigDigest} over every effective knob (the user's overrides
     * applied) and the {@code [swarm]} table, so shards that would draw different runs never merge.
     */
    public static String digest(final Scenario scenario) {
        final SortedMap<String, String> all = new TreeMap<>(scenario.knobs());
        for (final Map.Entry<String, List<String>> e : scenario.swarm().entrySet()) {
            all.put("swarm." + e.getKey(), e.getValue().toString());
        }
        return ConfigDigest.of(all);
    }

    /** Writes this summary as JSON, creating the parent directories. */
    public void write(final Path file) throws IOException {
        OutputFile.writeString(file, ReportJson.toJson(this) + "\n");
    }

    /** Reads a summary; the message of the {@link IllegalArgumentException} says what is wrong with it. */
    public static ShardSummary read(final Path file) throws IOException {
        final String text = Files.readString(file);
        try {
            return READER.readValue(text, ShardSummary.class);
        } catch (final JacksonException e) {
            throw new IllegalArgumentException(file + " is not a shard summary: " + e.getOriginalMessage(), e);
        }
    }
}
