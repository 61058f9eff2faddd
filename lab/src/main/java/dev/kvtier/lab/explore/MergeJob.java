package dev.kvtier.lab.explore;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A merge of an exploration's shard summaries ({@code kvtier explore merge}): reads each summary (a directory stands
 * for its {@code *.json} files in name order), combines them ({@link SummaryMerge}), prints the Markdown report and
 * writes it, and as JSON, where asked. Refuses different scenarios or code and overlapping seeds; reports missing
 * shards.
 */
public final class MergeJob {
    private final List<Path> inputs;
    private final List<String> required;
    private final boolean allowMissing;
    private final Path markdown;
    private final Path json;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to merge.
     *
     * @param inputs       summaries, or directories of them
     * @param required     probes some shard must have reached, besides the scenario's
     * @param allowMissing exit 0 even when shards of a planned range are missing
     * @param markdown     where the Markdown report goes too, or null
     * @param json         where the JSON report goes, or null
     */
    public record Request(List<Path> inputs, List<String> required, boolean allowMissing, Path markdown, Path json) {
        public Request {
            inputs = List.copyOf(inputs);
            required = List.copyOf(required);
        }
    }

    /** A merge of {@code q}, printing on {@code out} and {@code err}. */
    public MergeJob(final Request q, final PrintStream out, final PrintStream err) {
        this.inputs = q.inputs();
        this.required = q.required();
        this.allowMissing = q.allowMissing();
        this.markdown = q.markdown();
        this.json = q.json();
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
        final String badMarkdown = markdown == null ? null : OutputFile.check(markdown, "--markdown", inputs);
        final String bad = badMarkdown != null || json == null ? badMarkdown : OutputFile.check(json, "--json",
            inputs);
        if (bad != null) {
            err.println("kvtier: explore merge: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final MergeReport report;
        try {
            report = SummaryMerge.merge(read(), required);
        } catch (final IllegalArgumentException | IOException e) {
            err.println("kvtier: explore merge: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final String md = MergeMarkdown.render(report);
        out.print(md);
        try {
            if (markdown != null) {
                write(markdown, md);
            }
            if (json != null) {
                write(json, ReportJson.toJson(report) + "\n");
            }
        } catch (final IOException e) {
            err.println("kvtier: explore merge: cannot write the report: " + e.getMessage().replace('\n', ' '));
            return ExitCodes.BAD_INPUT;
        }
        return report.exitCode(allowMissing);
    }

    /** Every summary named, a directory standing for its {@code *.json} files in name order. */
    private List<SummaryMerge.Named> read() throws IOException {
        final List<SummaryMerge.Named> named = new ArrayList<>();
        for (final Path input : inputs) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> files = Files.list(input)) {
                    for (final Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                        named.add(new SummaryMerge.Named(f.toString(), ShardSummary.read(f)));
                    }
                }
            } else if (Files.isRegularFile(input)) {
                named.add(new SummaryMerge.Named(input.toString(), ShardSummary.read(input)));
            } else {
                throw new IOException(input + ": no such file or directory");
            }
        }
        return named;
    }

    private static void write(final Path file, final String text) throws IOException {
        OutputFile.writeString(file, text);
    }
}
