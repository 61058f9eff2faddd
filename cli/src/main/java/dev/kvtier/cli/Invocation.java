package dev.kvtier.cli;

import dev.kvtier.realio.files.Holder;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command line a command was started with, for the files it claims and the journals it writes: a second run
 * refused at once names the holder by its process, host and this command line.
 */
final class Invocation {
    private Invocation() {}

    /** {@code kvtier run pr90-evict-small --mode real ...}, as typed (arguments joined by spaces). */
    static String commandLine(final CommandSpec spec) {
        if (spec == null || spec.root().commandLine().getParseResult() == null) {
            return "kvtier";
        }
        final List<String> args = spec.root().commandLine().getParseResult().originalArgs();
        return "kvtier " + String.join(" ", args);
    }

    /** This process running the command of {@code spec}, from now. */
    static Holder holder(final CommandSpec spec) {
        return Holder.current(commandLine(spec));
    }
}
