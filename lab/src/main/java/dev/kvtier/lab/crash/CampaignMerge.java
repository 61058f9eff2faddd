package dev.kvtier.lab.crash;

import dev.kvtier.lab.ExitCodes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A merge of a crash campaign's shard summaries ({@code kvtier crash-campaign merge}): reads each summary (a
 * directory stands for its {@code *.json} files in name order), refuses summaries of different scenarios, overrides,
 * code, commit modes or planted bugs, and overlapping kills, then prints the figures over every kill judged, each
 * failure with its command, and the kills of the planned ranges that no summary judged. Exit 1 when a kill failed,
 * else 2 when kills are missing (unless {@code allowMissing}) or summaries were refused, else 0.
 */
public final class CampaignMerge {
    /** Missing kills listed by number, at most. */
    private static final int MISSING_LISTED = 20;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to merge.
     *
     * @param inputs       summaries, or directories of them
     * @param allowMissing exit 0 even when kills of a planned range are missing
     */
    public record Request(List<Path> inputs, boolean allowMissing) {
        public Request {
            inputs = List.copyOf(inputs);
        }
    }

    /** A merge of {@code q}, printing on {@code out} and {@code err}. */
    public CampaignMerge(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
        final List<CampaignSummary> all;
        try {
            all = read();
            check(all);
        } catch (final IllegalArgumentException | IOException e) {
            err.println("kvtier: crash-campaign merge: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (all.isEmpty()) {
            err.println("kvtier: crash-campaign merge: no summary found in " + q.inputs());
            return ExitCodes.BAD_INPUT;
        }
        final CampaignSummary first = all.getFirst();
        final List<KillVerdict> verdicts = new ArrayList<>();
        final List<CampaignSummary.Failure> failures = new ArrayList<>();
        double wall = 0;
        for (final CampaignSummary s : all) {
            verdicts.addAll(s.verdicts());
            failures.addAll(s.failures());
            wall += s.wallSeconds();
        }
        out.printf(Locale.ROOT, "crash campaign %s, commit mode %s%s: %d summaries, %.1f s of shards' wall time%n",
            first.scenario(), first.commitMode(), first.plant().equals("none") ? "" : ", planted bug " + first.plant(),
            all.size(), wall);
        final CampaignFigures figures = CampaignFigures.of(verdicts);
        figures.print(out, first.commitMode().equals("DURABLE"));
        CampaignFigures.printFailures(out, failures);
        final List<Long> missing = missing(all, verdicts);
        if (!missing.isEmpty()) {
            out.printf(Locale.ROOT, "kills not covered: %,d (%s%s)%n", missing.size(), missing.subList(0, Math.min(
                MISSING_LISTED, missing.size())), missing.size() > MISSING_LISTED ? " ..." : "");
        }
        out.println(figures.ok() ? "OK: every kill judged held" : "FAILED: " + figures.failed() + " kills failed");
        if (!figures.ok()) {
            return ExitCodes.INVARIANT;
        }
        return missing.isEmpty() || q.allowMissing() ? ExitCodes.OK : ExitCodes.BAD_INPUT;
    }

    private List<CampaignSummary> read() throws IOException {
        final List<CampaignSummary> all = new ArrayList<>();
        for (final Path input : q.inputs()) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> files = Files.list(input)) {
                    for (final Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                        all.add(CampaignSummary.read(f));
                    }
                }
            } else if (Files.isRegularFile(input)) {
                all.add(CampaignSummary.read(input));
            } else {
                throw new IOException(input + ": no such file or directory");
            }
        }
        return all;
    }

    /** Refuses summaries that are not shards of one campaign, or that overlap. */
    private static void check(final List<CampaignSummary> all) {
        for (int i = 0; i < all.size(); i++) {
            final CampaignSummary a = all.get(i);
            final CampaignSummary b = all.getFirst();
            if (!a.scenarioDigest().equals(b.scenarioDigest()) || !a.sets().equals(b.sets())
                || !a.code().equals(b.code()) || !a.commitMode().equals(b.commitMode())
                || !a.plant().equals(b.plant())) {
                throw new IllegalArgumentException("summaries of different campaigns (scenario, overrides, code, "
                    + "commit mode or planted bug differ): " + a.scenario() + " " + a.sets() + " at " + a.code()
                    + " vs " + b.scenario() + " " + b.sets() + " at " + b.code());
            }
            for (int j = 0; j < i; j++) {
                final Long shared = a.range().firstShared(all.get(j).range());
                if (shared != null) {
                    throw new IllegalArgumentException("two summaries plan kill " + shared + ": " + a.range()
                        + " and " + all.get(j).range());
                }
            }
        }
    }

    /** Kills of the planned ranges that no summary judged, in order. */
    private static List<Long> missing(final List<CampaignSummary> all, final List<KillVerdict> verdicts) {
        final Set<Long> judged = new HashSet<>();
        for (final KillVerdict v : verdicts) {
            judged.add(v.kill());
        }
        final Set<String> ranges = new HashSet<>();
        final List<Long> missing = new ArrayList<>();
        for (final CampaignSummary s : all) {
            if (!ranges.add(s.range().from() + "+" + s.range().seeds())) {
                continue;
            }
            for (long k = s.range().from(); k < s.range().from() + s.range().seeds(); k++) {
                if (!judged.contains(k)) {
                    missing.add(k);
                }
            }
        }
        missing.sort(null);
        return missing;
    }
}
