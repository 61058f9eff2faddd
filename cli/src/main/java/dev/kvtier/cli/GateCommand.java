package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.gate.Gate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier gate SCENARIO}: runs the scenario and the baseline its {@code [gate]} names, in virtual time with the
 * same seed, and checks the slowdown on the gate's metric: {@code minSlowdown} (a known regression must be flagged)
 * and/or {@code maxSlowdown} (a change must not regress by more). Exit 0 when the gate holds, 4 when it does not.
 */
@Command(name = "gate", mixinStandardHelpOptions = true,
    description = "Compare a scenario with its [gate] baseline in virtual time; fail on the configured slowdown.")
public final class GateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "a scenario with a [gate] table")
    String scenario;

    @Option(names = "--seed", description = "seed for both runs (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a key in both runs")
    List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        if (seed < 0) {
            System.err.println("kvtier: --seed must be 0 or more, got " + seed);
            return ExitCodes.BAD_INPUT;
        }
        return Gate.check(scenario, sets, seed, System.out, System.err);
    }
}
