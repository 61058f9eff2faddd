package dev.kvtier.cli;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.cli.explore.MergeMarkdown;
import dev.kvtier.cli.explore.MergeReport;
import dev.kvtier.cli.explore.ShardSummary;
import dev.kvtier.cli.explore.SummaryMerge;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
        final String badMarkdown = markdown == null ? null : OutputFile.check(markdown, "--markdown", inputs);
        final String bad = badMarkdown != null || json == null ? badMarkdown : OutputFile.check(json, "--json",
            inputs);
        if (bad != null) {
            System.err.println("kvtier: explore merge: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final MergeReport report;
        try {
            report = SummaryMerge.merge(read(), required);
        } catch (final IllegalArgumentException | IOException e) {
            System.err.println("kvtier: explore merge: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final String md = MergeMarkdown.render(report);
        System.out.print(md);
        try {
            if (markdown != null) {
                write(markdown, md);
            }
            if (json != null) {
                write(json, ReportJson.toJson(report) + "\n");
            }
        } catch (final IOException e) {
            System.err.println("kvtier: explore merge: cannot write the report: " + e.getMessage().replace('\n', ' '));
            return ExitCodes.BAD_INPUT;
        }
        return report.exitCode(allowMissing);
    }

    /** Every summary named, a directory standing for its {@code *.json} files in name order. */
    private List<SummaryMerge.Named> read() throws IOException {
        final List<SummaryMerge.Named> out = new ArrayList<>();
        for (final Path input : inputs) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> files = Files.list(input)) {
                    for (final Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                        out.add(new SummaryMerge.Named(f.toString(), ShardSummary.read(f)));
                    }
                }
            } else if (Files.isRegularFile(input)) {
                out.add(new SummaryMerge.Named(input.toString(), ShardSummary.read(input)));
            } else {
                throw new IOException(input + ": no such file or directory");
            }
        }
        return out;
    }

    private static void write(final Path file, final String text) throws IOException {
        OutputFile.writeString(file, text);
    }
}
