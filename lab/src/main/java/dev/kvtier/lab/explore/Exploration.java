package dev.kvtier.lab.explore;

import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.Interruption;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An exploration: seeds in virtual time, swarm knobs drawn per seed (on worker threads of this JVM, with the results
 * of one thread); it stops at the first failure (or, keeping going, records them all) with its journal and the
 * commands that reproduce and replay it, and writes what the shard ran to a JSON summary that a merge combines. It
 * prints, per coverage probe, the seeds that reached it and the first of them, and the probes no seed reached. An
 * unsharded exploration that held every invariant but reached none of the seeds of a probe its scenario requires
 * ({@code [coverage] required}) exits 4, as a merge does (the same check, on its one summary); a shard leaves that to
 * the merge.
 */
public final class Exploration {
    /** Most seeds one exploration plans (the seed list is held in memory). */
    public static final long SEEDS_MAX = 10_000_000;
    /** The longest time budget: a week. */
    public static final long MINUTES_MAX = 7 * 24 * 60;

    private final String scenario;
    private final Long seeds;
    private final long from;
    private final String shard;
    private final boolean shardFromEnv;
    private final boolean keepGoing;
    private final String summary;
    private final int threads;
    private final List<String> sets;
    private final Path journals;
    private final Map<String, String> environment;
    private final boolean onTerminal;
    private final double minutes;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to explore, as {@code kvtier explore} takes it.
     *
     * @param scenario     a library name or a path (null: refused)
     * @param seeds        how many seeds, before sharding (null: refused)
     * @param from         the first seed
     * @param shard        {@code i/n}, or null
     * @param shardFromEnv take the shard from {@code environment}
     * @param keepGoing    run every seed and record every failure
     * @param summary      where the JSON summary goes (a directory when it ends in '/'), or null
     * @param threads      worker threads
     * @param sets         overrides for every seed
     * @param journals     where a failing seed's journal goes
     * @param environment  the environment the shard is read from
     * @param onTerminal   whether progress goes to a terminal
     * @param minutes      a time budget: stop before the next seed once this many minutes of wall time passed (0:
     *                     none); the summary is then partial, as after an interruption
     */
    public record Request(String scenario, Long seeds, long from, String shard, boolean shardFromEnv,
                          boolean keepGoing, String summary, int threads, List<String> sets, Path journals,
                          Map<String, String> environment, boolean onTerminal, double minutes) {
        public Request {
            sets = List.copyOf(sets);
            environment = Map.copyOf(environment);
        }
    }

    /** An exploration of {@code q}, printing on {@code out} and {@code err}. */
    public Exploration(final Request q, final PrintStream out, final PrintStream err) {
        this.scenario = q.scenario();
        this.seeds = q.seeds();
        this.from = q.from();
        this.shard = q.shard();
        this.shardFromEnv = q.shardFromEnv();
        this.keepGoing = q.keepGoing();
        this.summary = q.summary();
        this.threads = q.threads();
        this.sets = q.sets();
        this.journals = q.journals();
        this.environment = q.environment();
        this.onTerminal = q.onTerminal();
        this.minutes = q.minutes();
        this.out = out;
        this.err = err;
    }

    /**
     * Runs it; the exit code. SIGINT or SIGTERM stop it before the next seed is tallied (the seeds running end
     * first): the summary of the seeds it finished is written, marked partial, and one line says what was kept.
     */
    public int run() {
        final Interruption interruption = Interruption.armed();
        try {
            return run(interruption);
        } finally {
            interruption.close();
        }
    }

    private int run(final Interruption interruption) {
        final SeedSet range;
        try {
            range = range();
        } catch (final IllegalArgumentException e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final String bad = badOutputs();
        if (bad != null) {
            err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Explorer explorer = new Explorer(scenario, sets, out, err);
        final long startNs = System.nanoTime();
        final Explorer.Result r = explorer.explore(Explorer.seeds(from, seeds, range.shard()),
            new Explorer.Options(journals, keepGoing, onTerminal, 10, threads, () -> interruption.requested()
                || overBudget(startNs)));
        if (r.exitCode() == ExitCodes.BAD_INPUT) {
            return r.exitCode();
        }
        if (r.interrupted() && r.seedsRun() == 0) {
            err.println("kvtier: interrupted before the first seed finished; nothing to keep");
            return ExitCodes.INTERRUPTED;
        }
        final ShardSummary s = new ShardSummary(ShardSummary.FORMAT, r.scenarioName(), r.scenarioDigest(), sets,
            BuildInfo.commit(), range, keepGoing, range.planned(), r.seedsRun(), r.stoppedAt(), r.wallSeconds(),
            r.failures(), r.seeds(), r.probes(), r.required(), r.requiredMinSeeds(), r.interrupted());
        Coverage.print(out, r.probes(), r.required(), r.requiredMinSeeds(), r.seedsRun(),
            range.shard().count() > 1);
        if (summary != null) {
            final Path file = summaryFile(range, r.scenarioName());
            try {
                s.write(file);
            } catch (final IOException e) {
                err.println("kvtier: " + OutputFile.describe(file, e));
                return ExitCodes.BAD_INPUT;
            }
            out.println("summary: " + file);
        }
        if (r.interrupted()) {
            err.println("kvtier: " + (interruption.requested() ? "interrupted" : "stopped at its budget of " + minutes
                + " minutes") + " after " + r.seedsRun() + " of " + range.planned() + " seeds (the last "
                + r.stoppedAt() + "); " + (summary == null ? "no summary was asked for (--summary FILE keeps one)"
                    : "kept their summary " + summaryFile(range, r.scenarioName()) + ", marked partial"));
            final int stopped = interruption.requested() ? ExitCodes.INTERRUPTED : ExitCodes.OK;
            return r.exitCode() == ExitCodes.OK ? stopped : r.exitCode();
        }
        if (r.exitCode() != ExitCodes.OK || range.shard().count() > 1) {
            return r.exitCode();
        }
        return SummaryMerge.merge(List.of(new SummaryMerge.Named("(this exploration)", s)), List.of())
            .exitCode(true);
    }

    /** Whether the time budget ({@code --minutes}) is spent. */
    private boolean overBudget(final long startNs) {
        return minutes > 0 && System.nanoTime() - startNs >= minutes * 60e9;
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
        if (!(minutes >= 0) || minutes > MINUTES_MAX) {
            throw new IllegalArgumentException("--minutes must be in [0, " + MINUTES_MAX + "], got " + minutes);
        }
        if (from < 0) {
            throw new IllegalArgumentException("--from must be 0 or more, got " + from);
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
}
