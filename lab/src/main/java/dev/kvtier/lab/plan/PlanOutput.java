package dev.kvtier.lab.plan;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Where a plan goes: a shard's JSON, or the whole plan's files at a prefix and, with a results root, a result. */
public final class PlanOutput {
    private PlanOutput() {}

    /**
     * The plan's destinations.
     *
     * @param out     a shard's JSON file, or the whole plan's prefix ({@code PREFIX.md}, {@code PREFIX.json},
     *                {@code PREFIX-hits.png}, {@code PREFIX-wear.png}), or null
     * @param results a results root (the plan goes into a new folder under its {@code plans/}), or null
     * @param why     why the plan is made, for its metadata, or null
     */
    public record Where(Path out, Path results, String why) {
        /** Null, or why the plan cannot be written here. */
        String check(final Shard shard, final String scenario) {
            final List<Path> inputs = List.of(Path.of(scenario));
            if (shard.count() > 1) {
                if (out == null || !out.toString().endsWith(".json") || results != null) {
                    return "a shard of a plan (--shard " + shard + ") writes its rows to --out FILE.json, for "
                        + "'kvtier plan merge'; --results takes the merged plan";
                }
                return OutputFile.check(out, "--out", inputs);
            }
            if (results != null && Files.exists(results) && !Files.isDirectory(results)) {
                return "--results " + results + " is a file; name a directory";
            }
            if (out != null) {
                for (final String end : List.of(".md", ".json", "-hits.png", "-wear.png")) {
                    final String bad = OutputFile.check(Path.of(out + end), "--out", inputs);
                    if (bad != null) {
                        return bad;
                    }
                }
            }
            return null;
        }

        /**
         * Writes {@code r} (a shard's rows when {@code shard}), a result's folder named for {@code at} (when the
         * command started); the exit code: 1 when a cell failed an invariant.
         */
        int write(final PlanResult r, final boolean shard, final Instant at, final PrintStream stdout,
                  final PrintStream stderr) {
            try {
                if (shard) {
                    r.write(out);
                    stdout.println("wrote " + out + " (" + r.rows().size() + " of " + r.cells() + " cells; merge "
                        + "the shards with ./kvtier plan merge)");
                } else {
                    stdout.print(PlanReport.table(r));
                    if (out != null) {
                        for (final Path p : PlanReport.write(r, out)) {
                            stdout.println("wrote " + p);
                        }
                    }
                    if (results != null) {
                        result(r, at.truncatedTo(ChronoUnit.SECONDS), stdout);
                    }
                }
            } catch (final IOException e) {
                stderr.println("kvtier: " + OutputFile.describe(out != null ? out : results, e));
                return ExitCodes.BAD_INPUT;
            }
            final long failed = r.rows().stream().filter(x -> !x.ok()).count();
            if (failed > 0) {
                stderr.println("FAILED: " + failed + " cells broke an invariant (their rows say so)");
                return ExitCodes.INVARIANT;
            }
            return ExitCodes.OK;
        }

        private void result(final PlanResult r, final Instant at, final PrintStream stdout) throws IOException {
            ResultFolders.publish(results, ResultKind.PLAN, r.scenario(), Outputs.hostName(), at, r, why,
                folder -> PlanReport.write(r, folder.resolve(PlanReport.BASE)), stdout);
        }
    }
}
