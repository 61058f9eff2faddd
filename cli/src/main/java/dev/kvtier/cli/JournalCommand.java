package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.journal.dump.JournalDump;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier journal}: tools over a journal directory. */
@Command(name = "journal", mixinStandardHelpOptions = true, description = "Inspect a journal.",
    subcommands = {JournalCommand.Dump.class})
public final class JournalCommand implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /**
     * {@code kvtier journal dump DIR [--from N] [--to M] [--type T]...}: one event a line, {@code seq timeNs Type
     * field=value ...}. The whole journal is checked even when the range ends early; a bad journal exits 2.
     */
    @Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print a journal's events, one a line: seq timeNs Type field=value ...")
    public static final class Dump implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "journal directory")
        Path dir;

        @Option(names = "--from", paramLabel = "N", description = "first sequence number (default 0)")
        long from;

        @Option(names = "--to", paramLabel = "M", description = "last sequence number (default: the end)")
        long to = Long.MAX_VALUE;

        @Option(names = "--type", paramLabel = "T", description = "only events of this record type (repeatable), "
            + "e.g. EntryEvicted")
        List<String> types = new ArrayList<>();

        @Override
        public Integer call() {
            final int code = JournalDump.dump(dir, from, to, new TreeSet<>(types), System.out, System.err);
            return code == JournalDump.OK ? ExitCodes.OK : ExitCodes.BAD_INPUT;
        }
    }
}
