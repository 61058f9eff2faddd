package dev.kvtier.cli;

import dev.kvtier.harness.run.RunMode;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.RunJob;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.scenarios.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier run SCENARIO}: one run, every invariant checked at every event; in virtual time (the simulator's
 * root, {@code SimRun}) or with {@code --mode real} on a real disk (realio's root, {@code RealRun}). This class parses
 * the options and hands the run to lab's {@link RunJob}.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a scenario (a library name or a TOML path) in virtual time (or on a real disk with --mode "
        + "real) and check every invariant.")
public final class RunCommand implements Callable<Integer> {
    /** The longest --timeout: a day. */
    static final long TIMEOUT_SECONDS_MAX = 86_400;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name (${COMPLETION-CANDIDATES}) or path",
        completionCandidates = Library.class)
    String scenario;

    @Option(names = "--seed", description = "root seed (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "override a scenario key, e.g. core.l1Fraction=0.5")
    List<String> sets = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE", description = "write the run report as JSON")
    Path report;

    @Option(names = "--requests", paramLabel = "FILE", description = "write one CSV line per request: where its input "
        + "tokens came from (L1, L2, prefilled) and why each prefilled token was not loaded")
    Path requests;

    @Option(names = "--journal", paramLabel = "DIR",
        description = "write a journal of the run to DIR (absent or empty)")
    Path journal;

    @Option(names = "--journal-max-bytes", paramLabel = "BYTES", description = "the journal's disk holds at most "
        + "BYTES (injects a full journal disk): past it the journal keeps and seals the events before, and the run "
        + "exits 2 once done")
    long journalMaxBytes = Long.MAX_VALUE;

    @Option(names = "--mode", description = "virtual (default) or real")
    RunMode mode = RunMode.VIRTUAL;

    @Option(names = "--device", paramLabel = "PATH", description = "real mode: the L2 file or block device")
    Path device;

    @Option(names = "--io", description = "real mode: auto (io_uring, else FileChannel), uring or filechannel")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--index-device", paramLabel = "PATH",
        description = "real mode: the crash-safe index's file or block device (default: DEVICE.index)")
    Path indexDevice;

    @Option(names = "--recover", description = "real mode: recover the index from the index device (default: format "
        + "a fresh one); the workload's loads then verify the bytes of every recovered key they find")
    boolean recover;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "real mode: wall-time limit (default 3600)")
    long timeoutSeconds = 3600;

    @Option(names = "--repeat", paramLabel = "N", description = "virtual mode: run N times in this JVM (the first as "
        + "usual, then N-1 more without journal or report) and print each repetition's events/s; every digest must "
        + "equal the first's")
    int repeat = 1;

    @Option(names = "--swarm", description = "draw this seed's knobs from the scenario's [swarm] table, as explore "
        + "does: an explored seed, run alone (prints what it drew)")
    boolean swarm;

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Mixin
    Invoked invoked = new Invoked();

    /** Library names for help text. */
    static final class Library extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Library() {
            super(ScenarioLoader.LIBRARY);
        }
    }

    @Override
    public Integer call() {
        final String bad = badOptions();
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final RunJob.Real real = device == null ? null : new RunJob.Real(device, indexDevice, recover, io,
            timeoutSeconds, forceOptions.force(), forceOptions.any() ? forceOptions.flag() : null);
        return new RunJob(
            new RunJob.Request(scenario, sets, seed, mode, report, requests, journal, journalMaxBytes, repeat, real,
                invoked.holder(), true, swarm),
            System.out, System.err).run();
    }

    /** Null, or what is wrong with the options' combination (each option parsed on its own already). */
    private String badOptions() {
        if (seed < 0) {
            return "--seed must be 0 or more, got " + seed;
        }
        if ((mode == RunMode.REAL) != (device != null)) {
            return "--device PATH goes with --mode real (and only with it)";
        }
        if (device == null && (indexDevice != null || recover || forceOptions.any())) {
            return "--index-device, --recover, --force and --force-wipe go with --mode real";
        }
        if (timeoutSeconds < 1 || timeoutSeconds > TIMEOUT_SECONDS_MAX) {
            return "--timeout must be a number of seconds in [1, " + TIMEOUT_SECONDS_MAX + "], got " + timeoutSeconds;
        }
        if (repeat < 1 || repeat > RunJob.REPEAT_MAX || (repeat > 1 && mode != RunMode.VIRTUAL)) {
            return "--repeat must be in [1, " + RunJob.REPEAT_MAX + "] and goes with virtual mode, got " + repeat;
        }
        if (journalMaxBytes < 1) {
            return "--journal-max-bytes must be positive, got " + journalMaxBytes;
        }
        if (journalMaxBytes != Long.MAX_VALUE && journal == null) {
            return "--journal-max-bytes goes with --journal DIR";
        }
        return null;
    }
}
