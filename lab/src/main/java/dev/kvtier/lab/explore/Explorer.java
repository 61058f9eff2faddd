package dev.kvtier.lab.explore;

import dev.kvtier.lab.run.SeedPlan;
import dev.kvtier.harness.probe.Probe;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.JournalRecording;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.scenarios.SwarmCheck;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs seeds in virtual time, each with the swarm knobs its own stream draws, on one thread or on several ({@link
 * SeedPool}: the results, tallied in seed order on the caller's thread, are the same). By default it stops
 * at the first failing seed; with {@code keepGoing} it runs every seed and records every failure. A failing seed is
 * re-run with a journal (one seed is one run, so the failure repeats) for the first failure of each signature, and
 * the exact {@code kvtier run} and {@code kvtier replay} commands are printed. Every run also reports the coverage
 * probes it reached; the exploration keeps, for every probe of the catalogue, the seeds that reached it and the first
 * of them (the probes of a shard summary), with the probes the scenario requires ({@code [coverage] required}). A
 * terminal gets a progress bar; anything else (a CI log) gets a plain line every {@code reportEvery} seeds.
 */
public final class Explorer {
    /** Most worker threads one exploration runs seeds on. */
    public static final int THREADS_MAX = SeedPool.THREADS_MAX;

    private final String scenario;
    private final List<String> userSets;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * How to explore: where journals go, whether to go on past failures, how to report progress, on how many
     * worker threads seeds run ({@link #THREADS_MAX} at most; the results are the same whatever the number), and
     * when to stop before the last seed (an interruption: asked before each seed is tallied).
     */
    public record Options(Path journals, boolean keepGoing, boolean terminal, int reportEvery, int threads,
                          BooleanSupplier stop) {
        public Options {
            if (reportEvery < 1) {
                throw new IllegalArgumentException("reportEvery must be at least 1, got " + reportEvery);
            }
            if (threads < 1 || threads > THREADS_MAX) {
                throw new IllegalArgumentException("threads must be in [1, " + THREADS_MAX + "], got " + threads);
            }
        }

        /** Seeds on one thread, the caller's. */
        public Options(final Path journals, final boolean keepGoing, final boolean terminal, final int reportEvery) {
            this(journals, keepGoing, terminal, reportEvery, 1);
        }

        /** Never stopped from outside. */
        public Options(final Path journals, final boolean keepGoing, final boolean terminal, final int reportEvery,
                       final int threads) {
            this(journals, keepGoing, terminal, reportEvery, threads, () -> false);
        }
    }

    /**
     * What one seed gave, computed on a worker and tallied by the caller: the probes its run reached and its failure
     * (null when it held every invariant), or, when its knobs did not load, why (bad input; {@code sc} is null).
     */
    private record Outcome(SeedPlan plan, Scenario sc, List<String> reached, Failure failure, String badInput,
                           String digest) {}

    /**
     * What an exploration did.
     *
     * @param exitCode       0, 1 (an invariant failed), 2 (bad input: nothing ran) or 3 (a crash)
     * @param scenarioName   the scenario's name (null on bad input)
     * @param scenarioDigest {@link ShardSummary#digest} (null on bad input)
     * @param seedsRun       seeds run
     * @param stoppedAt      the failing seed it stopped at, or null when it ran every seed (or none, on bad input)
     * @param failures       every failure, in seed order
     * @param seeds          every seed run, in seed order, with its digest and swarm draws
     * @param probes         every probe of the catalogue with the seeds that reached it
     * @param required       the probes the scenario requires ({@code [coverage] required})
     * @param requiredMinSeeds the requirement holds for explorations of at least this many seeds
     * @param wallSeconds    wall-clock time
     * @param message        the first failure's message, or the bad input's, or null
     * @param interrupted    stopped from outside (SIGINT or SIGTERM) after {@code stoppedAt}, the last seed tallied
     */
    public record Result(int exitCode, String scenarioName, String scenarioDigest, long seedsRun, Long stoppedAt,
                         List<Failure> failures, List<SeedRun> seeds, SortedMap<String, ProbeReach> probes,
                         List<String> required, long requiredMinSeeds, double wallSeconds, String message,
                         boolean interrupted) {
        public Result {
            failures = List.copyOf(failures);
            seeds = seeds.stream().sorted(Comparator.comparingLong(SeedRun::seed)).toList();
            probes = new TreeMap<>(probes);
            required = List.copyOf(required);
        }

        /** The first failing seed, or -1. */
        public long failingSeed() {
            return failures.isEmpty() ? -1 : failures.getFirst().seed();
        }

        /** The first failure's message (or the bad input's), or null. */
        public String failure() {
            return message;
        }

        static Result badInput(final String message) {
            return new Result(ExitCodes.BAD_INPUT, null, null, 0, null, List.of(), List.of(), new TreeMap<>(),
                List.of(), 1, 0, message, false);
        }
    }

    public Explorer(final String scenario, final List<String> userSets, final PrintStream out, final PrintStream err) {
        this.scenario = scenario;
        this.userSets = List.copyOf(userSets);
        this.out = out;
        this.err = err;
    }

    /** The seeds of {@code [from, from + count)} that {@code shard} runs, in order. */
    public static List<Long> seeds(final long from, final long count, final Shard shard) {
        final List<Long> seeds = new ArrayList<>();
        for (long offset = 0; offset < count; offset++) {
            if (shard.owns(offset)) {
                seeds.add(from + offset);
            }
        }
        return seeds;
    }

    /** Explores, stopping at the first failure; {@code journals} is where a failing seed's journal goes. */
    public Result explore(final List<Long> seeds, final Path journals, final boolean terminal,
                          final int reportEvery) {
        return explore(seeds, new Options(journals, false, terminal, reportEvery));
    }

    /** Explores {@code seeds} in order. */
    public Result explore(final List<Long> seeds, final Options options) {
        final Scenario base;
        try {
            base = ScenarioLoader.load(scenario, userSets, SwarmCheck.DRAWS); // a bad swarm value before any seed
        } catch (final ScenarioException e) {
            err.println("kvtier: " + e.getMessage());
            return Result.badInput(e.getMessage());
        }
        out.println("explore " + base.name() + ": " + seeds.size() + " seeds" + (seeds.isEmpty() ? ""
            : " from " + seeds.getFirst() + " to " + seeds.getLast()) + ", swarm over " + base.swarm().keySet()
            + (options.keepGoing() ? ", going on past failures" : ""));
        if (base.swarm().isEmpty()) {
            out.println("note: " + base.name() + " has no [swarm] table: every seed runs the same configuration, and"
                + " seeds differ only in their random streams (workload, faults, crash points)");
        }
        final Tally tally = new Tally(System.nanoTime());
        final ProgressBar bar = options.terminal() ? new ProgressBarBuilder().setTaskName("seeds")
            .setInitialMax(seeds.size()).setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(out)).build() : null;
        try (SeedPool<Outcome> pool = new SeedPool<>(seeds, options.threads(),
            seed -> run(SeedPlan.draw(seed, base.swarm(), userSets)))) {
            while (pool.hasNext()) {
                if (options.stop().getAsBoolean()) {
                    pool.stop(); // workers take no new seed; the ones running end before the pool closes
                    return tally.interrupted(base);
                }
                final Outcome o = pool.next();
                if (o.badInput() != null) {
                    err.println("kvtier: seed " + o.plan().seed() + ": " + o.badInput());
                    return Result.badInput(o.badInput());
                }
                if (o.failure() != null && !options.keepGoing()) {
                    pool.stop(); // no seed after this one is tallied: workers take no new seed
                }
                tally.ran(o.plan().seed(), o.reached());
                tally.seeds.add(new SeedRun(o.plan().seed(), o.failure() == null, o.digest(), o.plan().draws()));
                if (o.failure() != null) {
                    final boolean journal = tally.signatures.add(o.failure().signature());
                    tally.failures.add(pool.asOneOfTheRuns(() -> report(o.failure(), o.sc(), options.journals(),
                        journal)));
                }
                if (bar != null) {
                    bar.step();
                } else if (tally.run % options.reportEvery() == 0) {
                    out.printf("%d/%d seeds, %.1f seeds/s%n", tally.run, seeds.size(), tally.rate());
                }
                if (!tally.failures.isEmpty() && !options.keepGoing()) {
                    return tally.result(base, o.plan().seed());
                }
            }
        } finally {
            if (bar != null) {
                bar.close();
            }
        }
        final Result r = tally.result(base, null);
        out.printf("explored %d seeds in %.1f s (%.2f seeds/s%s): %s%n", r.seedsRun(), r.wallSeconds(), tally.rate(),
            options.threads() == 1 ? "" : ", " + options.threads() + " threads",
            r.failures().isEmpty() ? "every invariant held" : r.failures().size() + " failing seeds");
        return r;
    }

    /**
     * Runs one seed (on a worker thread when there are several; it touches nothing another seed does): what its run
     * reached and how it failed, or why its knobs did not load. A seed that throws is a crash of that seed.
     */
    private Outcome run(final SeedPlan plan) {
        final Scenario sc;
        try {
            sc = ScenarioLoader.load(scenario, plan.sets(), SwarmCheck.NONE);
        } catch (final ScenarioException e) {
            return new Outcome(plan, null, List.of(), null, e.getMessage(), SeedRun.NO_DIGEST);
        }
        final EventKinds kinds = new EventKinds();
        Failure failure;
        List<String> reached = List.of();
        String digest = SeedRun.NO_DIGEST;
        try {
            final RunReport r = runSeed(sc, plan.seed(), kinds);
            reached = List.copyOf(r.probes().keySet());
            digest = r.eventDigest();
            failure = r.ok() ? null : Failure.ofViolation(plan.seed(), r.violation(), kinds.last(),
                ExitCodes.INVARIANT, plan, plan.runCommand(scenario));
        } catch (final RuntimeException e) {
            failure = Failure.ofCrash(plan.seed(), e, kinds.last(), ExitCodes.CRASH, plan, plan.runCommand(scenario));
        }
        return new Outcome(plan, sc, reached, failure, null, digest);
    }

    /**
     * One seed's run; its device storage then goes to this thread's reserve for the next seed's ({@link
     * SimRun#recycle}): the same report as a run in a fresh JVM.
     */
    static RunReport runSeed(final Scenario sc, final long seed, final EventSink sink) {
        return Runs.virtualRecycling(sc, seed, sink);
    }

    /** Prints a failure and, when {@code journal}, re-runs it with a journal; returns it with the journal's path. */
    private Failure report(final Failure failure, final Scenario sc, final Path journals, final boolean journal) {
        err.println("FAILED at seed " + failure.seed() + ": " + failure.message());
        err.println("reproduce: " + failure.reproduce());
        if (!journal) {
            err.println("(a journal of seed " + failure.seed() + " is not written: an earlier seed failed the same"
                + " way, " + failure.signature() + ")");
            return failure;
        }
        final Path dir = journals.resolve(sc.name() + "-seed-" + failure.seed());
        try {
            final JournalRecording recording = JournalRecording.open(dir, sc, failure.seed(), RunMode.VIRTUAL);
            try {
                Runs.virtual(sc, failure.seed(), recording);
            } catch (final RuntimeException e) {
                err.println("(the journal ends at the crash)");
            }
            recording.finish(err, err);
            err.println("replay:    ./kvtier replay " + dir);
            return failure.withJournal(dir.toString());
        } catch (final JournalException e) {
            err.println("kvtier: no journal: " + e.getMessage());
            return failure;
        }
    }

    /** What the seeds so far did. */
    private static final class Tally {
        private final long t0;
        private final List<Failure> failures = new ArrayList<>();
        private final List<SeedRun> seeds = new ArrayList<>();
        private final Set<String> signatures = new HashSet<>();
        private final SortedMap<String, ProbeReach> probes = new TreeMap<>();
        private long run;
        private Long lastSeed;

        Tally(final long t0) {
            this.t0 = t0;
            for (final Probe p : ProbeCatalogue.all()) {
                probes.put(p.name(), ProbeReach.NONE);
            }
        }

        void ran(final long seed, final List<String> reached) {
            run++;
            lastSeed = seed;
            for (final String name : reached) {
                probes.merge(name, ProbeReach.NONE.plus(seed), ProbeReach::plus);
            }
        }

        double seconds() {
            return (System.nanoTime() - t0) / 1e9;
        }

        double rate() {
            return run / Math.max(1e-9, seconds());
        }

        Result result(final Scenario base, final Long stoppedAt) {
            final int code = failures.stream().anyMatch(f -> f.exitCode() == ExitCodes.CRASH) ? ExitCodes.CRASH
                : failures.isEmpty() ? ExitCodes.OK : ExitCodes.INVARIANT;
            return new Result(code, base.name(), ShardSummary.digest(base), run, stoppedAt, failures, seeds, probes,
                base.required(), base.requiredMinSeeds(), seconds(),
                failures.isEmpty() ? null : failures.getFirst().message(), false);
        }

        /** What the seeds tallied before an interruption gave: stopped at the last of them. */
        Result interrupted(final Scenario base) {
            final Result r = result(base, lastSeed);
            return new Result(r.exitCode(), r.scenarioName(), r.scenarioDigest(), r.seedsRun(), lastSeed,
                r.failures(), r.seeds(), r.probes(), r.required(), r.requiredMinSeeds(), r.wallSeconds(), r.message(),
                true);
        }
    }
}
