package dev.kvtier.cli.explore;

import dev.kvtier.cli.Dispatch;
import dev.kvtier.cli.ExitCodes;
import dev.kvtier.cli.JournalRecording;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs seeds one after another in virtual time, each with the swarm knobs its own stream draws, and stops at the
 * first failing seed: it re-runs that seed with a journal (one seed is one run, so the failure repeats) and prints
 * the exact {@code kvtier run} and {@code kvtier replay} commands. A terminal gets a progress bar; anything else
 * (a CI log) gets a plain line every {@code reportEvery} seeds.
 */
public final class Explorer {
    private final String scenario;
    private final List<String> userSets;
    private final PrintStream out;
    private final PrintStream err;

    /** What an exploration did. */
    public record Result(int exitCode, long seedsRun, long failingSeed, String failure, double seedsPerSecond) { }

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

    /** Explores; {@code journals} is where a failing seed's journal goes. */
    public Result explore(final List<Long> seeds, final Path journals, final boolean terminal,
                          final int reportEvery) {
        final Scenario base;
        try {
            base = ScenarioLoader.load(scenario, userSets);
            validateSwarm(base);
        } catch (final ScenarioException e) {
            err.println("kvtier: " + e.getMessage());
            return new Result(ExitCodes.BAD_INPUT, 0, -1, e.getMessage(), 0);
        }
        out.println("explore " + base.name() + ": " + seeds.size() + " seeds" + (seeds.isEmpty() ? ""
            : " from " + seeds.getFirst() + " to " + seeds.getLast()) + ", swarm over " + base.swarm().keySet());
        final long t0 = System.nanoTime();
        final ProgressBar bar = terminal ? new ProgressBarBuilder().setTaskName("seeds").setInitialMax(seeds.size())
            .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(out))
            .build() : null;
        long run = 0;
        try {
            for (final long seed : seeds) {
                final SeedPlan plan = SeedPlan.draw(seed, base.swarm(), userSets);
                final Result failed = runSeed(plan, journals, t0, run);
                run++;
                if (bar != null) {
                    bar.step();
                } else if (run % reportEvery == 0) {
                    out.printf("%d/%d seeds, %.1f seeds/s%n", run, seeds.size(), rate(run, t0));
                }
                if (failed != null) {
                    return failed;
                }
            }
        } finally {
            if (bar != null) {
                bar.close();
            }
        }
        final double rate = rate(run, t0);
        out.printf("explored %d seeds in %.1f s (%.2f seeds/s): every invariant held%n", run,
            (System.nanoTime() - t0) / 1e9, rate);
        return new Result(ExitCodes.OK, run, -1, null, rate);
    }

    private Result runSeed(final SeedPlan plan, final Path journals, final long t0, final long run) {
        final Scenario sc;
        try {
            sc = ScenarioLoader.load(scenario, plan.sets());
        } catch (final ScenarioException e) {
            err.println("kvtier: seed " + plan.seed() + ": " + e.getMessage());
            return new Result(ExitCodes.BAD_INPUT, run, plan.seed(), e.getMessage(), rate(run, t0));
        }
        final RunReport r;
        try {
            r = new SimRun(sc.spec(), sc.sim(), plan.seed(), List.of()).run();
        } catch (final RuntimeException e) {
            return report(plan, sc, journals, "crash (a bug): " + e, ExitCodes.CRASH, run, t0);
        }
        return r.ok() ? null : report(plan, sc, journals, r.violation(), ExitCodes.INVARIANT, run, t0);
    }

    private Result report(final SeedPlan plan, final Scenario sc, final Path journals, final String failure,
                          final int code, final long run, final long t0) {
        final Path dir = journals.resolve(sc.name() + "-seed-" + plan.seed());
        err.println("FAILED at seed " + plan.seed() + ": " + failure);
        err.println("reproduce: " + plan.runCommand(scenario));
        try {
            final JournalRecording recording = JournalRecording.open(dir, sc, plan.seed(), RunMode.VIRTUAL);
            try {
                Dispatch.virtual(sc, plan.seed(), recording);
            } catch (final RuntimeException e) {
                err.println("(the journal ends at the crash)");
            }
            recording.finish(err, err);
            err.println("replay:    ./kvtier replay " + dir);
        } catch (final JournalException e) {
            err.println("kvtier: no journal: " + e.getMessage());
        }
        return new Result(code, run + 1, plan.seed(), failure, rate(run + 1, t0));
    }

    /** Every swarm value must load; the error names the key and value. */
    private void validateSwarm(final Scenario base) throws ScenarioException {
        for (final Map.Entry<String, List<String>> e : base.swarm().entrySet()) {
            for (final String v : e.getValue()) {
                final List<String> sets = new ArrayList<>(userSets);
                sets.add(e.getKey() + "=" + v);
                ScenarioLoader.load(scenario, sets);
            }
        }
    }

    private static double rate(final long seeds, final long t0) {
        return seeds / Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
    }
}
