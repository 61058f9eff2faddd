package dev.kvtier.lab.plan;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plan, or one shard of it ({@code kvtier plan --shard i/n --out FILE.json}), as JSON: what was asked (the
 * scenario and its digest, the overrides, the grid, the scale, the seed) and a row for each cell run. Shards of one
 * plan agree on everything but {@code shard} and {@code rows}; {@code kvtier plan merge} joins their rows.
 *
 * @param format         {@link #FORMAT}
 * @param scenario       the scenario's name
 * @param scenarioDigest every effective knob of the scenario with the overrides (shards of one plan agree)
 * @param sets           the user's {@code --set}s
 * @param code           the commit the CLI was built from
 * @param command        the command that makes this plan (all shards)
 * @param scale          how sizes map onto the scenario's shrunk KV ({@link KvScale#format})
 * @param timeScale      the trace's time scale in the run (arrivals at this times the trace's rate)
 * @param idealHitRatio  the trace's ideal hit ratio ({@link IdealHits}), or null for a scenario without a trace
 * @param driveBytes     the drive the wear is for, or null when each cell's drive is its L2
 * @param seed           the run's seed
 * @param l1             the L1 sizes, real bytes
 * @param l2             the L2 sizes, real bytes
 * @param admissions     the admission policies
 * @param shard          {@code i/n}, or {@code 0/1} for the whole plan
 * @param rows           a row for each cell this shard ran, in grid order
 */
public record PlanResult(int format, String scenario, String scenarioDigest, List<String> sets, String code,
                         String command, String scale, double timeScale, Double idealHitRatio, Long driveBytes,
                         long seed, List<Long> l1, List<Long> l2, List<String> admissions, String shard,
                         List<PlanRow> rows) {
    /** The format this CLI writes and reads. */
    public static final int FORMAT = 1;
    private static final JsonMapper READER = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public PlanResult {
        if (format != FORMAT) {
            throw new IllegalArgumentException("plan format " + format + ", this kvtier reads " + FORMAT);
        }
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(scenarioDigest, "scenarioDigest");
        sets = List.copyOf(sets);
        l1 = List.copyOf(l1);
        l2 = List.copyOf(l2);
        admissions = List.copyOf(admissions);
        rows = rows.stream().sorted(Comparator.comparing(PlanRow::admission).thenComparingLong(PlanRow::l1Bytes)
            .thenComparingLong(PlanRow::l2Bytes)).toList();
    }

    /** The cells of the whole grid. */
    public int cells() {
        return l1.size() * l2.size() * admissions.size();
    }

    /** This plan with {@code more} rows and {@code shard}. */
    public PlanResult with(final List<PlanRow> all, final String newShard) {
        return new PlanResult(format, scenario, scenarioDigest, sets, code, command, scale, timeScale, idealHitRatio,
            driveBytes, seed, l1, l2, admissions, newShard, all);
    }

    /** True when {@code other} plans the same thing (every field but the shard and the rows). */
    public boolean samePlan(final PlanResult other) {
        return with(List.of(), "").equals(other.with(List.of(), ""));
    }

    /** Writes this as JSON, whole or not at all. */
    public void write(final Path file) throws IOException {
        OutputFile.writeString(file, ReportJson.toJson(this) + "\n");
    }

    /** Reads a plan or a shard; the message of the {@link IllegalArgumentException} says what is wrong. */
    public static PlanResult read(final Path file) throws IOException {
        try {
            return READER.readValue(Files.readString(file), PlanResult.class);
        } catch (final JacksonException e) {
            throw new IllegalArgumentException(file + " is not a plan: " + e.getOriginalMessage(), e);
        }
    }
}
