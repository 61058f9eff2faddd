package dev.kvtier.cli;

import dev.kvtier.lab.explore.MergeJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier explore merge FILE... [--require PROBE]... [--markdown FILE] [--json FILE]}: combines shard summaries
 * into one report (Markdown on standard output). Exit codes: {@link MergeReport#exitCode}; 2 with one line when it
 * refuses (unreadable summaries, different scenarios or code, overlapping seeds, an unknown probe).
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
    description = {"Combine the --summary files of an exploration's shards into one report.",
        "Refuses different scenarios or code and overlapping seeds; reports missing shards.",
        "Exit: 3 a seed crashed, 1 an invariant failed, 2 shards missing (or refused), 4 a required probe unreached."})
public final class ExploreMergeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "summaries, or directories of them (*.json)")
    List<Path> inputs;

    @Option(names = "--require", paramLabel = "PROBE", description = "fail (exit 4) when no shard reached this "
        + "coverage probe (kvtier probes lists them, e.g. ring.wrap.skip), besides the scenario's [coverage] required")
    List<String> required = new ArrayList<>();

    @Option(names = "--allow-missing", description = "exit 0 even when shards of a planned range are missing")
    boolean allowMissing;

    @Option(names = "--markdown", paramLabel = "FILE", description = "also write the Markdown report here")
    Path markdown;

    @Option(names = "--json", paramLabel = "FILE", description = "write the report as JSON here")
    Path json;

    @Override
    public Integer call() {
        return new MergeJob(new MergeJob.Request(inputs, required, allowMissing, markdown, json), System.out,
            System.err).run();
    }
}
