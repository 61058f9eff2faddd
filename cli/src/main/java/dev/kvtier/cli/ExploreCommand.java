package dev.kvtier.cli;

import dev.kvtier.cli.explore.Explorer;
import dev.kvtier.cli.explore.SeedSet;
import dev.kvtier.cli.explore.Shard;
import dev.kvtier.cli.explore.Coverage;
import dev.kvtier.cli.explore.ShardSummary;
import dev.kvtier.cli.explore.SummaryMerge;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
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
@Command(name = "explore", mixinStandardHelpOptions = true, subcommands = ExploreMergeCommand.class,
    description = {"Run many seeds in virtual time (swarm knobs per seed); stop at the first failing seed.",
        "'kvtier explore merge FILE...' combines the --summary files of many shards."})
public final class ExploreCommand implements Callable<Integer> {
    /** Most seeds one exploration plans (the seed list is held in memory). */
    static final long SEEDS_MAX = 10_000_000;

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

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a key for every seed")
    List<String> sets = new ArrayList<>();

    @Option(names = "--journals", paramLabel = "DIR", description = "where a failing seed's journal goes "
        + "(default kvtier-out/explore)")
    Path journals = Outputs.ROOT.resolve("explore");

    /** The environment {@code --shard-from-env} reads (tests replace it). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() {
        final SeedSet range;
        try {
            range = range();
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final String bad = badOutputs();
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Explorer explorer = new Explorer(scenario, sets, System.out, System.err);
        final Explorer.Result r = explorer.explore(Explorer.seeds(from, seeds, range.shard()),
            new Explorer.Options(journals, keepGoing, onTerminal(), 10, threads));
        if (r.exitCode() == ExitCodes.BAD_INPUT) {
            return r.exitCode();
        }
        final ShardSummary s = new ShardSummary(ShardSummary.FORMAT, r.scenarioName(), r.scenarioDigest(), sets,
            BuildInfo.commit(), range, keepGoing, range.planned(), r.seedsRun(), r.stoppedAt(), r.wallSeconds(),
            r.failures(), r.probes(), r.required(), r.requiredMinSeeds());
        Coverage.print(System.out, r.probes(), r.required(), r.requiredMinSeeds(), r.seedsRun(),
            range.shard().count() > 1);
        if (summary != null) {
            final Path file = summaryFile(range, r.scenarioName());
            try {
                s.write(file);
            } catch (final IOException e) {
                System.err.println("kvtier: " + OutputFile.describe(file, e));
                return ExitCodes.BAD_INPUT;
            }
            System.out.println("summary: " + file);
        }
        if (r.exitCode() != ExitCodes.OK || range.shard().count() > 1) {
            return r.exitCode();
        }
        return SummaryMerge.merge(List.of(new SummaryMerge.Named("(this exploration)", s)), List.of())
            .exitCode(true);
    }

    /** The seeds this shard plans, from the options; the message names a bad or missing one. */
    private SeedSet range() {
        if (scenario == null) {
            throw new IllegalArgumentException("explore needs a SCENARIO (a library name or a path)");
        }
        if (seeds == null || seeds < 1 || seeds > SEEDS_MAX) {
            throw new IllegalArgumentException("--seeds must be in [1, " + SEEDS_MAX + "] (shard larger ranges over "
                + "several runs with --from), got " + (seeds == null ? "none" : seeds));
        }
        if (from > Long.MAX_VALUE - seeds + 1) {
            throw new IllegalArgumentException("--from " + from + " with --seeds " + seeds + " runs past the largest "
                + "seed, " + Long.MAX_VALUE);
        }
        if (threads < 1 || threads > Explorer.THREADS_MAX) {
            throw new IllegalArgumentException("--threads must be in [1, " + Explorer.THREADS_MAX + "], got "
                + threads);
        }
        if (shardFromEnv && shard != null) {
            throw new IllegalArgumentException("--shard and --shard-from-env exclude each other");
        }
        final Shard s = shardFromEnv ? Shard.fromEnv(environment) : shard == null ? Shard.ALL : Shard.parse(shard);
        return new SeedSet(from, seeds, s);
    }

    /** Null, or why the journals' directory or the summary cannot be written. */
    private String badOutputs() {
        if (Files.exists(journals) && !Files.isDirectory(journals)) {
            return "--journals " + journals + " is a file; name a directory";
        }
        if (summary != null && !summary.endsWith("/") && !Files.isDirectory(Path.of(summary))) {
            final List<Path> inputs = ScenarioLoader.LIBRARY.contains(scenario) ? List.of() : List.of(Path.of(
                scenario));
            return OutputFile.check(Path.of(summary), "--summary", inputs);
        }
        return null;
    }

    private Path summaryFile(final SeedSet range, final String scenarioName) {
        final Path path = Path.of(summary);
        if (!summary.endsWith("/") && !Files.isDirectory(path)) {
            return path;
        }
        final String name = scenarioName + "-seeds-" + range.from() + "-" + (range.from() + range.seeds() - 1)
            + "-shard-" + range.shard().index() + "-of-" + range.shard().count() + ".json";
        return path.resolve(name);
    }

    /** Whether this runs on a terminal: since JDK 22 System.console() is there without one too (a CI log). */
    // Null-safe and asking isTerminal(), as the JDK 22 release note says; the check flags any null test of a console.
    @SuppressWarnings("SystemConsoleNull")
    private static boolean onTerminal() {
        final Console console = System.console();
        return console != null && console.isTerminal();
    }
}
