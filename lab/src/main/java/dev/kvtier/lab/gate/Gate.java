package dev.kvtier.lab.gate;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * A regression gate: a scenario and the baseline its {@code [gate]} names, run in virtual time with the same seed, and
 * the slowdown on the gate's metric held against {@code minSlowdown} (a known regression must be flagged) and/or
 * {@code maxSlowdown} (a change must not regress by more).
 */
public final class Gate {
    private Gate() {}

    /** The outcome of a gate. */
    public record Verdict(double slowdown, boolean holds, String line) {}

    /**
     * Runs the gate of {@code scenario} (with {@code sets} in both runs) and prints its verdict on {@code out}; the
     * exit code: OK, GATE, INVARIANT, or BAD_INPUT (the reason on {@code err}).
     */
    public static int check(final String scenario, final List<String> sets, final long seed, final PrintStream out,
                            final PrintStream err) {
        final Scenario candidate;
        final Scenario baseline;
        try {
            candidate = ScenarioLoader.load(scenario, sets);
            if (candidate.gate() == null) {
                err.println("kvtier: " + candidate.source() + " has no [gate] table");
                return ExitCodes.BAD_INPUT;
            }
            baseline = ScenarioLoader.load(candidate.gate().baseline(), sets);
        } catch (final ScenarioException e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final RunReport b = Runs.virtual(baseline, seed);
        final RunReport c = Runs.virtual(candidate, seed);
        if (!b.ok() || !c.ok()) {
            err.println("FAILED: an invariant failed: " + (b.ok() ? c.violation() : b.violation()));
            return ExitCodes.INVARIANT;
        }
        final Verdict v = verdict(candidate.gate(), metric(b, candidate.gate().metric()),
            metric(c, candidate.gate().metric()), baseline.name(), candidate.name());
        out.println(v.line());
        return v.holds() ? ExitCodes.OK : ExitCodes.GATE;
    }

    /**
     * Applies the gate's bounds to the two measurements. {@code maxSlowdown} bounds a change: a larger slowdown is
     * flagged as a regression and fails. {@code minSlowdown} makes a canary: the candidate is a known regression, and
     * the gate passes only if the harness flags it (a slowdown of at least that much).
     */
    public static Verdict verdict(final Scenario.Gate gate, final long baselineValue, final long candidateValue,
                                  final String baselineName, final String candidateName) {
        final double slowdown = (double) candidateValue / baselineValue - 1;
        final boolean minOk = gate.minSlowdown() == 0 || slowdown >= gate.minSlowdown();
        final boolean maxOk = gate.maxSlowdown() == 0 || slowdown <= gate.maxSlowdown();
        final String flag;
        if (gate.minSlowdown() > 0) {
            flag = String.format(Locale.ROOT, "%s (a canary: a known regression, flagged at >= %+.1f %%)",
                minOk ? "flagged" : "not flagged", 100 * gate.minSlowdown());
        } else {
            flag = String.format(Locale.ROOT, "%s (at most %+.1f %% allowed)", maxOk ? "not flagged" : "flagged",
                100 * gate.maxSlowdown());
        }
        final String line = String.format(Locale.ROOT, "gate %s: %s %.3f s vs %s %.3f s: %+.1f %%, %s%s -> %s",
            gate.metric(), candidateName, candidateValue / 1e9, baselineName, baselineValue / 1e9, 100 * slowdown,
            flag, gate.minSlowdown() > 0 && gate.maxSlowdown() > 0
                ? String.format(Locale.ROOT, " and at most %+.1f %%", 100 * gate.maxSlowdown()) : "",
            minOk && maxOk ? "PASS" : "FAIL");
        return new Verdict(slowdown, minOk && maxOk, line);
    }

    /** A gate metric of a report: a phase time, or a phase's TTFT mean or p99 ({@code ttft.PHASE.mean|p99}). */
    public static long metric(final RunReport r, final String name) {
        if (name.startsWith("ttft.")) {
            final String[] parts = name.split("\\.", -1);
            final var ttft = r.metrics().ttftNanos().get(parts[1]);
            if (ttft == null) {
                throw new IllegalArgumentException("gate metric " + name + ": the run has no phase '" + parts[1]
                    + "' (phases: " + r.metrics().ttftNanos().keySet() + ")");
            }
            return parts[2].equals("p99") ? ttft.p99() : Math.round(ttft.mean());
        }
        return name.equals("warmPhaseNanos") ? r.metrics().warmPhaseNanos() : r.metrics().coldPhaseNanos();
    }
}
