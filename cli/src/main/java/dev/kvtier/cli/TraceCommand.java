package dev.kvtier.cli;

import dev.kvtier.journal.trace.PerfettoExport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier trace DIR --perfetto OUT.json}: a journal as Chrome trace-event JSON for the Perfetto UI. */
@Command(name = "trace", mixinStandardHelpOptions = true,
    description = "Export a journal as a Perfetto (Chrome trace-event JSON) trace.")
public final class TraceCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "journal directory")
    Path dir;

    @Option(names = "--perfetto", paramLabel = "OUT.json", required = true, description = "the trace file to write")
    Path out;

    @Override
    public Integer call() {
        final boolean existed = Files.exists(out);
        final int code = PerfettoExport.export(dir, out, System.err);
        if (code == 0) {
            System.out.println("trace " + out + " written; open it at ui.perfetto.dev (Open trace file)");
            return ExitCodes.OK;
        }
        if (!existed) {
            deletePartial();
        }
        return ExitCodes.BAD_INPUT;
    }

    /** A failed export leaves no half-written trace behind. */
    private void deletePartial() {
        try {
            Files.deleteIfExists(out);
        } catch (final IOException e) {
            System.err.println("kvtier: cannot remove the partial trace " + out + ": " + e.getMessage());
        }
    }
}
