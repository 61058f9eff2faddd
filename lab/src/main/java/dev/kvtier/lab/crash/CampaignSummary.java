package dev.kvtier.lab.crash;

import dev.kvtier.lab.explore.SeedSet;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one shard of a crash campaign ran and found ({@code kvtier crash-campaign --summary FILE}), for
 * {@code kvtier crash-campaign merge}.
 *
 * @param format         {@link #FORMAT}
 * @param scenario       the scenario's name
 * @param scenarioDigest every effective knob, digested: shards of one campaign agree
 * @param sets           the user's {@code --set}s
 * @param code           the commit the CLI was built from, or "unknown"
 * @param commitMode     {@code L1} or {@code DURABLE}
 * @param plant          the bug planted between kill and recovery ({@code none} in a real campaign)
 * @param range          the kills this shard planned (a kill's number is its run's seed)
 * @param killAt         the one kill point every kill used ({@code --kill-at}), or null when each drew its own
 * @param stoppedAt      the failing kill the shard stopped at, or null when it ran every planned kill
 * @param wallSeconds    the shard's wall time
 * @param verdicts       every kill it judged, in order
 * @param failures       every failing kill, with the command that reruns it
 */
public record CampaignSummary(int format, String scenario, String scenarioDigest, List<String> sets, String code,
                              String commitMode, String plant, SeedSet range, String killAt, Long stoppedAt,
                              double wallSeconds, List<KillVerdict> verdicts, List<Failure> failures) {
    /** The summary format this CLI writes and reads. */
    public static final int FORMAT = 1;
    private static final JsonMapper READER = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public CampaignSummary {
        if (format != FORMAT) {
            throw new IllegalArgumentException("campaign summary format " + format + ", this kvtier reads " + FORMAT);
        }
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(scenarioDigest, "scenarioDigest");
        Objects.requireNonNull(range, "range");
        sets = List.copyOf(sets);
        verdicts = List.copyOf(verdicts);
        failures = List.copyOf(failures);
        for (final KillVerdict v : verdicts) {
            if (!range.contains(v.kill())) {
                throw new IllegalArgumentException(range + " does not plan kill " + v.kill());
            }
        }
    }

    /**
     * A failing kill.
     *
     * @param kill      its number
     * @param point     its kill point
     * @param life      where its run died, or null
     * @param what      what broke, one line each
     * @param reproduce the command that runs this kill again, at the same point
     * @param kept      the files kept for it (its acknowledgement log, recovered chunks, process output, device)
     */
    public record Failure(long kill, String point, String life, List<String> what, String reproduce,
                          List<String> kept) {
        public Failure {
            what = List.copyOf(what);
            kept = List.copyOf(kept);
        }
    }

    /** Writes this summary as JSON. */
    public void write(final Path file) throws IOException {
        OutputFile.writeString(file, ReportJson.toJson(this) + "\n");
    }

    /** Reads a summary; the message of the {@link IllegalArgumentException} says what is wrong with it. */
    public static CampaignSummary read(final Path file) throws IOException {
        try {
            return READER.readValue(Files.readString(file), CampaignSummary.class);
        } catch (final JacksonException e) {
            throw new IllegalArgumentException(file + " is not a crash campaign summary: " + e.getOriginalMessage(),
                e);
        }
    }
}
