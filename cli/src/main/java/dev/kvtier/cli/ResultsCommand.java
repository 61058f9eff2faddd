package dev.kvtier.cli;

import dev.kvtier.lab.results.ResultsIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvtier results}: tools over a results root (the committed {@code results/}). */
@Command(name = "results", mixinStandardHelpOptions = true, description = "Tools over a results root.",
    subcommands = {ResultsCommand.Index.class})
public final class ResultsCommand implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /**
     * {@code kvtier results index [--dir DIR] [--check]}: regenerates {@code DIR/README.md} from the result folders
     * (lab's {@link ResultsIndex}), or checks that it is up to date and that the tree holds only the layout.
     */
    @Command(name = "index", mixinStandardHelpOptions = true,
        description = "Regenerate DIR/README.md, the index of the results (per kind, scenario and host: the current "
            + "result and what it superseded), or --check it.")
    public static final class Index implements Callable<Integer> {
        @Option(names = "--dir", paramLabel = "DIR", description = "the results root (default results)")
        Path dir = Path.of("results");

        @Option(names = "--check", description = "write nothing; exit 4 and say why when README.md is not the one the "
            + "folders give or the tree holds something the layout does not")
        boolean check;

        @Override
        public Integer call() throws IOException {
            return ResultsIndex.run(dir, check, System.out, System.err);
        }
    }
}
