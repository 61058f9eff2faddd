package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kvtier} command. Exit codes: {@link ExitCodes}. */
@Command(name = "kvtier", mixinStandardHelpOptions = true, version = "kvtier 0.1.0",
    description = "Deterministic simulation and test harness for a tiered (L1 host / L2 NVMe) KV-cache store.",
    subcommands = {RunCommand.class, ExploreCommand.class, ReplayCommand.class, JournalCommand.class,
        TraceCommand.class, GateCommand.class, SweepCommand.class, BaselineCommand.class, SignoffCommand.class,
        FidelityCommand.class, CalibrateCommand.class, BenchIoCommand.class, ResultsCommand.class,
        BenchRecoveryCommand.class, ProbesCommand.class, PlanCommand.class, CrashCampaignCommand.class,
        CrashImagesCommand.class})
public final class Main implements Runnable {

    public static void main(final String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (bad usage is {@link ExitCodes#BAD_INPUT}). */
    public static int execute(final String... args) {
        final CommandLine cl = commandLine();
        // Enum options (--mode, --io) take their values in any case: --mode real, --io filechannel.
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExitCodeExceptionMapper(e -> ExitCodes.CRASH);
        cl.setParameterExceptionHandler((ex, a) -> {
            System.err.println("kvtier: " + oneLine(ex.getMessage()) + didYouMean(ex));
            return ExitCodes.BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> crashed(ex));
        return cl.execute(args);
    }

    /** The whole command tree, every subcommand registered (what {@link #execute} parses with). */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new Main());
        // explore's own subcommand, registered here so that no command refers to another (CliRulesTest).
        cl.getSubcommands().get("explore").addSubcommand("merge", new ExploreMergeCommand());
        cl.getSubcommands().get("plan").addSubcommand("merge", new PlanMergeCommand());
        cl.getSubcommands().get("crash-campaign").addSubcommand("merge", new CrashCampaignMergeCommand());
        return cl;
    }

    /**
     * What a command threw: out of memory is one line (the run was too big for this JVM or machine, not an invariant
     * failure); anything else is a bug, printed with its stack trace. Both exit 3.
     */
    static int crashed(final Throwable e) {
        if (e instanceof OutOfMemoryError) {
            System.err.printf("kvtier: out of memory (%s; this JVM may use %d MiB of heap): make the run smaller, or "
                + "give the JVM more with KVTIER_JAVA_OPTS=-Xmx<size>%n", oneLine(String.valueOf(e.getMessage())),
                Runtime.getRuntime().maxMemory() >> 20);
            return ExitCodes.CRASH;
        }
        System.err.println("kvtier: crash (a bug): " + oneLine(e.toString()));
        e.printStackTrace();
        return ExitCodes.CRASH;
    }

    /** picocli's suggestions for a mistyped command or option, as {@code " (did you mean run?)"}, or nothing. */
    private static String didYouMean(final CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            return " (did you mean " + String.join(" or ", u.getSuggestions().subList(0, Math.min(3,
                u.getSuggestions().size()))) + "?)";
        }
        return "";
    }

    private static String oneLine(final String message) {
        return message == null ? "" : message.replace('\n', ' ').replace('\r', ' ');
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
