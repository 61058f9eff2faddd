package dev.kvtier.lab.crash;

import dev.kvtier.lab.run.ReportJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.JacksonException;

/**
 * What one campaign process does ({@link CampaignChild}), as the campaign hands it over in a JSON file: first, when
 * {@code verifyKill} is set, recover the files the previous kill left and judge them ({@link Judge}) into
 * {@code verdict}; then, when {@code runKill} is set (and the verdict held, or {@code keepGoing}), run the scenario
 * with that seed, writing {@code runAcks}, and die at {@code runPoint} (null: the measuring run, which finishes).
 *
 * @param scenario       a library name or a path
 * @param sets           the {@code --set} overrides
 * @param device         the L2 file ({@code DEVICE.index} beside it)
 * @param io             {@code auto}, {@code uring} or {@code filechannel}
 * @param timeoutSeconds the wall-time limit of a run and of a recovery
 * @param holder         the campaign's command line, written into the files' headers and named to a second user
 * @param verifyKill     the kill whose files to recover and judge, or null
 * @param verifyPoint    its kill point
 * @param verifyAcks     its acknowledgement log
 * @param verdict        where its verdict goes (JSON)
 * @param recovered      where the list of recovered chunks goes (text, one a line)
 * @param runKill        the kill to run (its number is its seed), or null
 * @param runPoint       where it dies ({@link KillPoint}), or null for the measuring run
 * @param runAcks        its acknowledgement log (created)
 * @param keepGoing      run even after a verdict that failed (which overwrites the failing kill's files)
 */
public record ChildJob(String scenario, List<String> sets, String device, String io, long timeoutSeconds,
                       String holder, Long verifyKill, String verifyPoint, String verifyAcks, String verdict,
                       String recovered, Long runKill, String runPoint, String runAcks, boolean keepGoing) {
    public ChildJob {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(device, "device");
        sets = List.copyOf(sets);
        if (verifyKill != null && (verifyAcks == null || verdict == null || recovered == null)) {
            throw new IllegalArgumentException("a verification names the acknowledgement log, verdict and list");
        }
        if (runKill != null && runAcks == null) {
            throw new IllegalArgumentException("a run names its acknowledgement log");
        }
    }

    /** Writes the job to {@code file}. */
    public void write(final Path file) throws IOException {
        Files.writeString(file, ReportJson.toJson(this));
    }

    /** Reads a job. */
    public static ChildJob read(final Path file) throws IOException {
        try {
            return ReportJson.mapper().readValue(Files.readString(file), ChildJob.class);
        } catch (final JacksonException e) {
            throw new IOException(file + " is not a campaign job: " + e.getOriginalMessage(), e);
        }
    }
}
