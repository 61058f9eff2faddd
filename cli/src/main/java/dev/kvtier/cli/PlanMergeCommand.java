package dev.kvtier.cli;

import dev.kvtier.lab.plan.PlanMergeJob;
import dev.kvtier.lab.plan.PlanOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier plan merge SHARD.json...}. */
@Command(name = "merge", mixinStandardHelpOptions = true,
    description = "Join the shards of one plan (each written by 'kvtier plan ... --shard i/n --out FILE.json') "
        + "into the whole plan: its table, files and plots.")
public final class PlanMergeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SHARD.json", arity = "1..*", description = "the shards' files")
    List<Path> files = new ArrayList<>();

    @Option(names = "--out", paramLabel = "PREFIX", description = "write PREFIX.md, PREFIX.json and the plots")
    Path out;

    @Option(names = "--results", paramLabel = "DIR", description = "also write the plan as a result under "
        + "DIR/plans/")
    Path results;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this plan is made (one line)")
    String why;

    @Override
    public Integer call() {
        return PlanMergeJob.run(files, new PlanOutput.Where(out, results, why), System.out,
            System.err);
    }
}
