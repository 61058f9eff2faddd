package dev.kvtier.lab.plan;

import dev.kvtier.lab.ExitCodes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code kvtier plan merge SHARD.json...}: the shards of one plan joined into the whole plan, refused (exit 2, naming
 * the file) when a file is not a plan, plans something else, repeats a cell, or when cells are missing.
 */
public final class PlanMergeJob {
    private PlanMergeJob() {}

    /** Merges {@code files} and writes the plan to {@code where}; the exit code. */
    public static int run(final List<Path> files, final PlanOutput.Where where, final PrintStream out,
                          final PrintStream err) {
        final Instant at = Instant.now();
        PlanResult first = null;
        final List<PlanRow> rows = new ArrayList<>();
        final Set<String> cells = new HashSet<>();
        for (final Path f : files) {
            final PlanResult p;
            try {
                p = PlanResult.read(f);
            } catch (final IOException | IllegalArgumentException e) {
                err.println("kvtier: " + (e instanceof IOException ? f + ": cannot read: " : "") + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (first == null) {
                first = p;
            } else if (!first.samePlan(p)) {
                err.println("kvtier: " + f + " is a shard of another plan (scenario, overrides, grid, scale, seed or "
                    + "code differ from " + files.getFirst() + ")");
                return ExitCodes.BAD_INPUT;
            }
            for (final PlanRow r : p.rows()) {
                if (!cells.add(r.admission() + " " + r.l1Bytes() + " " + r.l2Bytes())) {
                    err.println("kvtier: " + f + " repeats the cell L1 " + PlanReport.size(r.l1Bytes()) + ", L2 "
                        + PlanReport.size(r.l2Bytes()) + ", " + r.admission() + " (two shards ran it)");
                    return ExitCodes.BAD_INPUT;
                }
                rows.add(r);
            }
        }
        if (first == null) {
            err.println("kvtier: plan merge needs at least one shard file");
            return ExitCodes.BAD_INPUT;
        }
        if (rows.size() != first.cells()) {
            err.println("kvtier: the shards hold " + rows.size() + " of the plan's " + first.cells() + " cells; run "
                + "the missing shards (" + first.command() + " --shard i/n)");
            return ExitCodes.BAD_INPUT;
        }
        final String bad = where.check(dev.kvtier.lab.explore.Shard.ALL, files.getFirst().toString());
        if (bad != null) {
            err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        return where.write(first.with(rows, "0/1"), false, at, out, err);
    }
}
