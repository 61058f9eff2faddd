package dev.kvtier.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kvtier} command. Exit codes: {@link ExitCodes}. */
@Command(name = "kvtier", mixinStandardHelpOptions = true, version = "kvtier 0.1.0",
    description = "Deterministic simulation and test harness for a tiered (L1 host / L2 NVMe) KV-cache store.",
    subcommands = {RunCommand.class, ExploreCommand.class, ReplayCommand.class, JournalCommand.class,
        TraceCommand.class, GateCommand.class, SweepCommand.class, BaselineCommand.class, SignoffCommand.class,
        CalibrateCommand.class, BenchIoCommand.class,
        BenchRecoveryCommand.class})
public final class Main implements Runnable {

    public static void main(final String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (bad usage is {@link ExitCodes#BAD_INPUT}). */
    public static int execute(final String... args) {
        final CommandLine cl = new CommandLine(new Main());
        // Enum options (--mode, --io) take their values in any case: --mode real, --io filechannel.
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExitCodeExceptionMapper(e -> ExitCodes.CRASH);
        cl.setParameterExceptionHandler((ex, a) -> {
            cl.getErr().println("kvtier: " + ex.getMessage());
            return ExitCodes.BAD_INPUT;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
