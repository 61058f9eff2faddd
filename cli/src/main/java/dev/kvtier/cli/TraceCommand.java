package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.journal.trace.PerfettoExport;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier trace DIR --perfetto OUT.json}: a journal as Chrome trace-event JSON for the Perfetto UI. The trace is
 * written to a temporary file beside OUT.json and renamed over it only when the whole journal was read and checked:
 * a bad journal leaves OUT.json as it was (absent, or the trace that was there).
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
    description = "Export a journal as a Perfetto (Chrome trace-event JSON) trace.")
public final class TraceCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "journal directory")
    Path dir;

    @Option(names = "--perfetto", paramLabel = "OUT.json", required = true, description = "the trace file to write")
    Path out;

    /** The export found the journal bad and said so; the temporary trace is dropped. */
    private static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused() {
            super("the journal is bad", null);
        }
    }

    @Override
    public Integer call() {
        final String bad = OutputFile.check(out, "--perfetto", journalFiles());
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        try {
            OutputFile.write(out, temporary -> {
                try (OutputStream o = Files.newOutputStream(temporary)) {
                    if (PerfettoExport.export(dir, o, out, System.err) != 0) {
                        throw new Refused();
                    }
                }
            });
        } catch (final Refused e) {
            return ExitCodes.BAD_INPUT;
        } catch (final IOException e) {
            System.err.println("kvtier: " + OutputFile.describe(out, e));
            return ExitCodes.BAD_INPUT;
        }
        System.out.println("trace " + out + " written; open it at ui.perfetto.dev (Open trace file)");
        return ExitCodes.OK;
    }

    /** The journal itself and every file in it: the trace must not go over one of them. */
    private List<Path> journalFiles() {
        if (!Files.isDirectory(dir)) {
            return List.of(dir);
        }
        try (Stream<Path> files = Files.list(dir)) {
            return Stream.concat(Stream.of(dir), files).toList();
        } catch (final IOException e) {
            return List.of(dir);
        }
    }
}
