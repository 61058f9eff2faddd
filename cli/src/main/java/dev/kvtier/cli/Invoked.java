package dev.kvtier.cli;

import dev.kvtier.realio.files.Holder;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A mixin for every command that claims files or writes journals: the command line it was started with, so a second
 * run refused at once names the holder by its process, host and this command line. (picocli takes a mixin with no
 * option only when it carries {@code @Command}; it is not a command: it runs nothing.)
 */
@Command
public final class Invoked {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** {@code kvtier run pr90-evict-small --mode real ...}, as typed (arguments joined by spaces). */
    public String commandLine() {
        if (mixee == null || mixee.root().commandLine().getParseResult() == null) {
            return "kvtier";
        }
        final List<String> args = mixee.root().commandLine().getParseResult().originalArgs();
        return "kvtier " + String.join(" ", args);
    }

    /** This process running the command, from now. */
    public Holder holder() {
        return Holder.current(commandLine());
    }
}
