package dev.kvtier.lab.baseline;

import dev.kvtier.harness.metrics.RunMetrics.EnginePhase;
import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.run.RunReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bundled scenario's performance baseline: its virtual-time figures at seed 1 (phase times, time to first token
 * per phase, engine step times, L1 hit ratio, store-acknowledgement and load latencies, L2 I/O counts and sizes). In
 * virtual time a run is exact, so any change of a figure is a change of behaviour; each figure has a band
 * ({@link #bandOf}) a change may stay within without a new baseline. A change beyond it fails the test suite until the
 * baseline is updated ({@code ./kvtier baseline --update}) and committed with its reason.
 *
 * @param scenario the scenario's library name
 * @param seed     the seed
 * @param figures  figure name to value, in a stable order
 */
public record Baseline(String scenario, long seed, Map<String, Double> figures) {
    /** The command that rewrites the committed baselines. */
    public static final String UPDATE_COMMAND = "./kvtier baseline --update";

    public Baseline {
        figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** The figures of one run. */
    public static Baseline of(final String scenario, final long seed, final RunReport r) {
        final Map<String, Double> f = new LinkedHashMap<>();
        for (final RunReport.Phase p : r.phases()) {
            f.put("phase." + p.name() + ".nanos", (double) p.durationNanos());
        }
        r.metrics().ttftNanos().forEach((phase, t) -> percentiles(f, "ttft." + phase, t));
        for (final Map.Entry<String, EnginePhase> e : r.metrics().engine().entrySet()) {
            f.put("steps." + e.getKey() + ".count", (double) e.getValue().stepNanos().count());
            f.put("steps." + e.getKey() + ".mean", e.getValue().stepNanos().mean());
            f.put("steps." + e.getKey() + ".p99", (double) e.getValue().stepNanos().p99());
        }
        f.put("l1HitRatio", r.metrics().l1HitRatio());
        percentiles(f, "storeAck", r.metrics().storeAckNanos());
        percentiles(f, "load", r.metrics().loadNanos());
        f.put("l2Reads", (double) r.metrics().l2Reads());
        f.put("l2Writes", (double) r.metrics().l2Writes());
        f.put("meanWriteBytes", r.metrics().meanWriteBytes());
        f.put("storedBytes", (double) r.metrics().storedBytes());
        f.put("loadedBytes", (double) r.metrics().loadedBytes());
        return new Baseline(scenario, seed, f);
    }

    private static void percentiles(final Map<String, Double> f, final String name, final Percentiles p) {
        f.put(name + ".mean", p.mean());
        f.put(name + ".p50", (double) p.p50());
        f.put(name + ".p99", (double) p.p99());
        f.put(name + ".max", (double) p.max());
    }

    /**
     * The band a figure may move within: the hit ratio by 0.005 (absolute), counts and byte totals by 0.5 %, times by
     * 1 % (relative). Anything larger is a change to review.
     */
    public static double bandOf(final String figure) {
        if (figure.equals("l1HitRatio")) {
            return 0.005;
        }
        if (figure.startsWith("l2") || figure.endsWith("Bytes") || figure.endsWith(".count")) {
            return 0.005;
        }
        return 0.01;
    }

    /** Whether a band is absolute (the hit ratio) rather than relative. */
    static boolean absolute(final String figure) {
        return figure.equals("l1HitRatio");
    }

    /** Every figure of {@code now} that left its band around this baseline, or is new or gone, one line each. */
    public List<String> differences(final Baseline now) {
        final List<String> out = new ArrayList<>();
        for (final Map.Entry<String, Double> e : figures.entrySet()) {
            final Double v = now.figures().get(e.getKey());
            if (v == null) {
                out.add(scenario + ": figure " + e.getKey() + " is gone (was " + show(e.getKey(), e.getValue()) + ")");
                continue;
            }
            final double was = e.getValue();
            final double band = bandOf(e.getKey());
            final boolean out1 = absolute(e.getKey()) ? Math.abs(v - was) > band
                : Math.abs(v - was) > band * Math.max(Math.abs(was), 1);
            if (out1) {
                out.add(String.format(Locale.ROOT, "%s: %s changed from %s to %s (%s, band %s)", scenario, e.getKey(),
                    show(e.getKey(), was), show(e.getKey(), v), change(e.getKey(), was, v),
                    absolute(e.getKey()) ? String.format(Locale.ROOT, "±%.3f", band)
                        : String.format(Locale.ROOT, "±%.1f %%", 100 * band)));
            }
        }
        for (final String k : now.figures().keySet()) {
            if (!figures.containsKey(k)) {
                out.add(scenario + ": figure " + k + " is new (" + show(k, now.figures().get(k)) + ")");
            }
        }
        return out;
    }

    private static String change(final String figure, final double was, final double now) {
        if (absolute(figure) || was == 0) {
            return String.format(Locale.ROOT, "%+.4f", now - was);
        }
        return String.format(Locale.ROOT, "%+.2f %%", 100 * (now / was - 1));
    }

    private static String show(final String figure, final double v) {
        if (figure.equals("l1HitRatio")) {
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (figure.contains("ttft") || figure.contains("phase")
            || (figure.startsWith("steps") && !figure.endsWith("count"))
            || figure.startsWith("storeAck") || figure.startsWith("load.")) {
            return String.format(Locale.ROOT, "%.3f ms", v / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
