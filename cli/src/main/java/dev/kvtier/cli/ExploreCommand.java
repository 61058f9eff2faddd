package dev.kvtier.cli;

import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.explore.Exploration;
import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.explore.Shard;
import java.io.Console;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier explore SCENARIO --seeds N [--from S] [--shard i/n | --shard-from-env] [--keep-going]
 * [--summary FILE] [--threads N]}: seeds in virtual time, swarm knobs drawn per seed (on N worker threads of this JVM,
 * with the results of one thread); stop at the first failure (or, with {@code --keep-going}, record them all) with
 * its journal and the commands that reproduce and replay it; write what the shard ran to a JSON summary that
 * {@code kvtier explore merge} combines. It prints, per coverage probe, the
 * seeds that reached it and the first of them, and the probes no seed reached. An unsharded exploration that held
 * every invariant but reached none of the seeds of a probe its scenario requires ({@code [coverage] required}) exits
 * 4, as {@code explore merge} does (the same check, on its one summary); a shard leaves that to the merge.
 */
@Command(name = "explore", mixinStandardHelpOptions = true,
    description = {"Run many seeds in virtual time (swarm knobs per seed); stop at the first failing seed.",
        "'kvtier explore merge FILE...' combines the --summary files of many shards."})
public final class ExploreCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--seeds", description = "how many seeds (the whole range, before sharding); required")
    Long seeds;

    @Option(names = "--from", description = "first seed (default 1)")
    long from = 1;

    @Option(names = "--shard", paramLabel = "i/n", description = "run only shard i of n (CI matrix, batch jobs)")
    String shard;

    @Option(names = "--shard-from-env", description = "take the shard from the environment: index from "
        + Shard.INDEX_ENV + " (a Kubernetes Indexed Job sets it), count from " + Shard.COUNT_ENV)
    boolean shardFromEnv;

    @Option(names = "--keep-going", description = "run every seed and record every failure (journals for the "
        + "first seed of each kind of failure) instead of stopping at the first")
    boolean keepGoing;

    @Option(names = "--summary", paramLabel = "FILE", description = "write a JSON summary of this shard (a "
        + "directory, or a path ending in /, gets a file named after the scenario, range and shard)")
    String summary;

    @Option(names = "--threads", paramLabel = "N",
        description = "run seeds on N worker threads of this JVM (default 1, "
            + "at most " + Explorer.THREADS_MAX + "); the results are the same as with one thread, and up to N seeds' "
            + "runs are in memory at once")
    int threads = 1;

    @Option(names = "--minutes", paramLabel = "M", description = "a time budget: stop before the next seed once M "
        + "minutes passed (with --seeds as the most to run); with --keep-going it runs on past failures until then, "
        + "without it stops at the first; the summary is marked partial")
    double minutes;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a key for every seed")
    List<String> sets = new ArrayList<>();

    @Option(names = "--journals", paramLabel = "DIR", description = "where a failing seed's journal goes "
        + "(default kvtier-out/explore)")
    Path journals = Outputs.ROOT.resolve("explore");

    /** The environment {@code --shard-from-env} reads (tests replace it). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() {
        return new Exploration(new Exploration.Request(scenario, seeds, from, shard, shardFromEnv, keepGoing, summary,
            threads, sets, journals, environment, onTerminal(), minutes), System.out, System.err).run();
    }

    /** Whether this runs on a terminal: since JDK 22 System.console() is there without one too (a CI log). */
    // Null-safe and asking isTerminal(), as the JDK 22 release note says; the check flags any null test of a console.
    @SuppressWarnings("SystemConsoleNull")
    private static boolean onTerminal() {
        final Console console = System.console();
        return console != null && console.isTerminal();
    }
}
