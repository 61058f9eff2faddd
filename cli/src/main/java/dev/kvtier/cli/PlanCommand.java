package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.lab.plan.PlanJob;
import dev.kvtier.lab.plan.PlanOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier plan SCENARIO --l1 SIZES --l2 SIZES}: a capacity plan over a grid of sizes. */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "Run a scenario (usually a trace) in virtual time at every L1 size x L2 size x admission policy, "
        + "and report each cell's hit ratio by tier, TTFT and end-to-end latency, L2 bandwidth and drive writes a "
        + "day beside the trace's ideal hit ratio: a table and two plots.")
public final class PlanCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
        description = "a scenario (name or path), usually "
            + "a trace")
    String scenario;

    @Option(names = "--l1", paramLabel = "SIZES", description = "L1 (host memory) sizes of the real "
        + "model's KV, comma-separated, with units: 16GiB,64GiB")
    List<String> l1 = new ArrayList<>();

    @Option(names = "--l2", paramLabel = "SIZES", description = "L2 (drive) sizes: 256GiB,1TiB")
    List<String> l2 = new ArrayList<>();

    @Option(names = "--admission", paramLabel = "POLICIES", description = "L2 admission policies: all (default), "
        + "second-sight, or both: all,second-sight")
    List<String> admission = new ArrayList<>();

    @Option(names = "--real-model", paramLabel = "PRESET", description = "the bundled model whose KV the sizes are "
        + "for (qwen3-8b, llama-3.1-8b, llama-3.1-70b, deepseek-v3), when the scenario shrinks its KV to run fast; "
        + "default: the scenario's own model")
    String realModel;

    @Option(names = "--drive", paramLabel = "SIZE", description = "the drive the writes a day are for (default: a "
        + "drive the size of each cell's L2)")
    String drive;

    @Option(names = "--seed", description = "the seed of every cell (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "an override for every cell")
    List<String> sets = new ArrayList<>();

    @Option(names = "--shard", paramLabel = "i/n", description = "run only cell k of the grid with k mod n = i, and "
        + "write its rows to --out FILE.json for 'kvtier plan merge'")
    String shard;

    @Option(names = "--out", paramLabel = "PREFIX", description = "write PREFIX.md, PREFIX.json, PREFIX-hits.png and "
        + "PREFIX-wear.png (a shard: FILE.json)")
    Path out;

    @Option(names = "--results", paramLabel = "DIR", description = "also write the plan as a result: a new folder "
        + "DIR/plans/<date>-<HHMM>-<scenario>-<host>; --results results adds it to the committed ones")
    Path results;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this plan is made (one line, in its result.json)")
    String why;

    @Override
    public Integer call() {
        if (scenario == null || l1.isEmpty() || l2.isEmpty()) {
            System.err.println("kvtier: plan needs SCENARIO, --l1 SIZES and --l2 SIZES (see ./kvtier plan --help)");
            return ExitCodes.BAD_INPUT;
        }
        if (seed < 0) {
            System.err.println("kvtier: --seed must be 0 or more, got " + seed);
            return ExitCodes.BAD_INPUT;
        }
        final Shard s;
        try {
            s = shard == null ? Shard.ALL : Shard.parse(shard);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        return new PlanJob(new PlanJob.Request(scenario, sets, l1, l2, admission, realModel, drive, seed, s,
            new PlanOutput.Where(out, results, why)), System.out, System.err).run();
    }
}
