package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.signoff.Signoff;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.scenarios.ScenarioException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier signoff SCENARIO --device PATH}: parses the options and hands the sign-off to lab's {@link Signoff}
 * (real runs, calibrated simulations and fio on one disk; results judged against the scenario's bands).
 */
@Command(name = "signoff", mixinStandardHelpOptions = true,
    description = "Real runs + calibrated simulations + fio on one disk; write a result folder and judge fidelity.")
public final class SignoffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the L2 file or block device")
    Path device;

    @Option(names = "--io", description = "auto, uring or filechannel (default auto)")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--seed", description = "seed of the first repetition, real and simulated (default 1)")
    long seed = 1;

    @Option(names = "--repeat", description = "repetitions of the real and the simulated run (default 3)")
    int repeat = 3;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a scenario key in both runs")
    List<String> sets = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR", description = "the results root: the result goes into a new "
        + "folder DIR/signoffs/<date>-<HHMM>-<scenario>-<host> (default kvtier-out; --results results adds it to the "
        + "committed ones and rewrites results/README.md)")
    Path results = Outputs.ROOT;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this sign-off is made (one line, kept in its "
        + "result.json and shown in the index beside the result it supersedes)")
    String why;

    @Mixin
    CalibrationOptions calibration = new CalibrationOptions();

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Mixin
    Invoked invoked = new Invoked();

    @Override
    public Integer call() throws IOException {
        if (seed < 0) {
            System.err.println("kvtier: --seed must be 0 or more, got " + seed);
            return ExitCodes.BAD_INPUT;
        }
        try {
            calibration.check();
        } catch (final ScenarioException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        return new Signoff(new Signoff.Request(scenario, sets, device, io, seed, repeat, results, calibration.choice(),
            forceOptions.force(), invoked.holder(), why), System.out, System.err).run();
    }
}
