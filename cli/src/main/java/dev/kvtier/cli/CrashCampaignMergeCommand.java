package dev.kvtier.cli;

import dev.kvtier.lab.crash.CampaignMerge;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier crash-campaign merge FILE... [--allow-missing]}: combines the summaries of a crash campaign's shards
 * into one set of figures ({@link CampaignMerge}).
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
    description = {"Combine the --summary files of a crash campaign's shards into one set of figures.",
        "Refuses different scenarios, overrides, code or commit modes, and overlapping kills; reports missing kills.",
        "Exit: 1 a kill failed, 2 kills missing (or summaries refused), 0 otherwise."})
public final class CrashCampaignMergeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "summaries, or directories of them (*.json)")
    List<Path> inputs;

    @Option(names = "--allow-missing", description = "exit 0 even when kills of a planned range are missing")
    boolean allowMissing;

    @Override
    public Integer call() {
        return new CampaignMerge(new CampaignMerge.Request(inputs, allowMissing), System.out, System.err).run();
    }
}
