package dev.kvtier.lab.sweep;

import dev.kvtier.lab.gate.Gate;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * A sweep: a candidate scenario against its gate's baseline, in virtual time with one seed, at each point of one or
 * more scenario keys varied together (parallel lists); at each point both get the same overrides, and the sweep
 * records a metric of each and their ratio (candidate / baseline).
 */
public final class Sweep {
    /** The keys varied, their values at each point (one list per key, all the same length). */
    public record Axis(List<String> keys, List<List<String>> values) {
        public Axis {
            keys = List.copyOf(keys);
            values = values.stream().map(List::copyOf).toList();
            if (keys.isEmpty() || keys.size() != values.size()) {
                throw new IllegalArgumentException("a sweep needs one value list per key");
            }
            final int n = values.getFirst().size();
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i).size() != n || n == 0) {
                    throw new IllegalArgumentException("every --vary needs the same number of values (" + keys.get(0)
                        + " has " + n + ", " + keys.get(i) + " has " + values.get(i).size() + ")");
                }
            }
        }

        int points() {
            return values.getFirst().size();
        }

        List<String> sets(final int point) {
            final List<String> out = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                out.add(keys.get(k) + "=" + values.get(k).get(point));
            }
            return out;
        }
    }

    /** One point: the overrides, the metric of baseline and candidate, and their ratio. */
    public record Point(List<String> sets, long baseline, long candidate, double ratio) {}

    /** The whole sweep. */
    public record Result(String candidate, String baseline, String metric, long seed, List<Point> points) {
        public Result {
            points = List.copyOf(points);
        }

        /** Whether the ratio never falls from one point to the next. */
        public boolean monotone() {
            for (int i = 1; i < points.size(); i++) {
                if (points.get(i).ratio() < points.get(i - 1).ratio()) {
                    return false;
                }
            }
            return true;
        }
    }

    private Sweep() {}

    /**
     * Runs the sweep; {@code extraSets} apply to every run. Throws {@link ScenarioException} on a bad scenario or
     * override, {@link IllegalStateException} when a run breaks an invariant.
     */
    public static Result run(final String candidateName, final String metric, final Axis axis, final long seed,
                             final List<String> extraSets) throws ScenarioException {
        final List<Point> points = new ArrayList<>();
        String baselineName = null;
        for (int p = 0; p < axis.points(); p++) {
            final List<String> sets = new ArrayList<>(extraSets);
            sets.addAll(axis.sets(p));
            final Scenario candidate = ScenarioLoader.load(candidateName, sets);
            if (candidate.gate() == null) {
                throw new ScenarioException(candidate.source() + " has no [gate] table naming its baseline");
            }
            final Scenario baseline = ScenarioLoader.load(candidate.gate().baseline(), sets);
            baselineName = baseline.name();
            final long b = Gate.metric(ok(Runs.virtual(baseline, seed)), metric);
            final long c = Gate.metric(ok(Runs.virtual(candidate, seed)), metric);
            points.add(new Point(axis.sets(p), b, c, (double) c / b));
        }
        return new Result(candidateName, baselineName, metric, seed, points);
    }

    private static RunReport ok(final RunReport r) {
        if (!r.ok()) {
            throw new IllegalStateException(r.scenario() + " broke an invariant: " + r.violation());
        }
        return r;
    }
}
