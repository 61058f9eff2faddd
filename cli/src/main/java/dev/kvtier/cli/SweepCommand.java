package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.sweep.SweepJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier sweep SCENARIO --vary KEY=V1,V2,...}: the scenario against its gate baseline at each point. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
    description = "Run a scenario against its [gate] baseline in virtual time at each point of one or more keys "
        + "varied together, and report the metric's ratio at each point.")
public final class SweepCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "a scenario with a [gate] table (name or path)")
    String scenario;

    @Option(names = "--vary", required = true, paramLabel = "KEY=V1,V2,...",
        description = "a scenario key and its values, one per point; several --vary are varied together")
    List<String> vary = new ArrayList<>();

    @Option(names = "--metric", description = "coldPhaseNanos, warmPhaseNanos or ttft.PHASE.mean|p99 "
        + "(default: the gate's)")
    String metric;

    @Option(names = "--seed", description = "root seed (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "an override for every run")
    List<String> sets = new ArrayList<>();

    @Option(names = "--out", paramLabel = "PREFIX", description = "write PREFIX.md, PREFIX.json and PREFIX.png")
    Path out;

    @Option(names = "--results", paramLabel = "DIR", description = "also write the sweep as a result: a new folder "
        + "DIR/sweeps/<date>-<HHMM>-<scenario>-<host> (sweep.md, sweep.json, sweep.png, result.json); --results "
        + "results adds it to the committed ones and rewrites results/README.md")
    Path results;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this sweep is made (one line, in its result.json;"
        + " with --results)")
    String why;

    @Override
    public Integer call() {
        if (seed < 0) {
            System.err.println("kvtier: --seed must be 0 or more, got " + seed);
            return ExitCodes.BAD_INPUT;
        }
        return new SweepJob(new SweepJob.Request(scenario, vary, metric, seed, sets, out, results, why), System.out,
            System.err)
            .run();
    }
}
