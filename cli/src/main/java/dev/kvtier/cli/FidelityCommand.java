package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.fidelity.FidelityMatrixJob;
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

/**
 * {@code kvtier fidelity --device PATH}: parses the options and hands the held-out fidelity matrix to lab's
 * {@link FidelityMatrixJob}.
 */
@Command(name = "fidelity", mixinStandardHelpOptions = true,
    description = "Held-out fidelity matrix: calibrate once, run scenarios real and simulated, report the error.")
public final class FidelityCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the L2 file (created; absent, "
        + "empty or kvtier's own unless --force)")
    Path device;

    @Option(names = "--io", description = "auto, uring or filechannel (default auto)")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--seed", description = "seed of the first repetition (default 1)")
    long seed = 1;

    @Option(names = "--repeat", description = "repetitions of each scenario in each mode (default 3)")
    int repeat = 3;

    @Option(names = "--held-out", paramLabel = "N", description = "instead of the fixed matrix, N shapes drawn at "
        + "random with --seed (prompt lengths, concurrency, tiers, spans, commit mode, replacement, staging, trace "
        + "windows), fitted to this machine and judged on the held-out thresholds")
    int heldOut;

    @Option(names = "--only", paramLabel = "LABEL",
        description = "run only these entries of the matrix: contiguous, per-slot, small-l1, zipf, trace")
    List<String> only = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "override a scenario key in every entry, after the "
            + "entry's own (e.g. workload.prompts=2 for a quick look; the report lists them)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR", description = "the results root: the result goes into a new "
        + "folder DIR/fidelity/<date>-<HHMM>-fidelity-<host> (default kvtier-out; --results results adds it to the "
        + "committed ones and rewrites results/README.md)")
    Path results = Outputs.ROOT;

    @Option(names = "--why", paramLabel = "TEXT", description = "why this matrix is measured (one line, kept in its "
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
        if (heldOut < 0) {
            System.err.println("kvtier: --held-out must be 1 or more, got " + heldOut);
            return ExitCodes.BAD_INPUT;
        }
        try {
            calibration.check();
        } catch (final ScenarioException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        return new FidelityMatrixJob(new FidelityMatrixJob.Request(device, io, seed, repeat, only, sets, results,
            calibration.choice(), forceOptions.force(), invoked.holder(), why, heldOut), System.out, System.err).run();
    }
}
