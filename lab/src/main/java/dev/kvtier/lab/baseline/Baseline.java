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
 * <p>A baseline of any scenario (a user's file, kept in the user's repository) also records how it was run and judged:
 * the overrides, the figures it keeps ({@code only}: name patterns, empty for all) and bands of its own
 * ({@code bands}: pattern to relative band). A pattern is a figure's name, or a prefix followed by {@code *}; the first
 * band whose pattern matches wins, else {@link #defaultBandOf}.
 *
 * @param scenario the scenario: a library name, or the path it was recorded from
 * @param seed     the seed
 * @param figures  figure name to value, in a stable order
 * @param sets     the {@code --set} overrides it ran with (empty for a bundled scenario's)
 * @param only     the figure patterns it keeps (empty: every figure)
 * @param bands    its own bands, pattern to relative band (empty: the defaults)
 */
public record Baseline(String scenario, long seed, Map<String, Double> figures, List<String> sets, List<String> only,
                       Map<String, Double> bands) {
    /** The command that rewrites the committed baselines. */
    public static final String UPDATE_COMMAND = "./kvtier baseline --update";

    public Baseline {
        figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        sets = sets == null ? List.of() : List.copyOf(sets);
        only = only == null ? List.of() : List.copyOf(only);
        bands = bands == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(bands));
        for (final Map.Entry<String, Double> b : bands.entrySet()) {
            if (!(b.getValue() >= 0) || b.getValue() > 10) {
                throw new IllegalArgumentException("band " + b.getKey() + "=" + b.getValue() + ": a band is a "
                    + "relative change in [0, 10] (0.10 is 10 %)");
            }
        }
    }

    /** A bundled scenario's baseline: every figure, the default bands. */
    public Baseline(final String scenario, final long seed, final Map<String, Double> figures) {
        this(scenario, seed, figures, List.of(), List.of(), Map.of());
    }

    /** This baseline keeping only the figures {@code only} matches (all when empty), judged with {@code bands}. */
    public Baseline judgedBy(final List<String> sets, final List<String> only, final Map<String, Double> bands) {
        final Map<String, Double> kept = new LinkedHashMap<>();
        figures.forEach((k, v) -> {
            if (only.isEmpty() || only.stream().anyMatch(p -> matches(p, k))) {
                kept.put(k, v);
            }
        });
        return new Baseline(scenario, seed, kept, sets, only, bands);
    }

    /** Whether figure {@code name} matches {@code pattern}: the same name, or a prefix ending in {@code *}. */
    static boolean matches(final String pattern, final String name) {
        return pattern.endsWith("*") ? name.startsWith(pattern.substring(0, pattern.length() - 1))
            : pattern.equals(name);
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
    public static double defaultBandOf(final String figure) {
        if (figure.equals("l1HitRatio")) {
            return 0.005;
        }
        if (figure.startsWith("l2") || figure.endsWith("Bytes") || figure.endsWith(".count")) {
            return 0.005;
        }
        return 0.01;
    }

    /** The band of {@code figure}: this baseline's own, the first whose pattern matches, else the default. */
    public double bandOf(final String figure) {
        for (final Map.Entry<String, Double> b : bands.entrySet()) {
            if (matches(b.getKey(), figure)) {
                return b.getValue();
            }
        }
        return defaultBandOf(figure);
    }

    /** Whether the band of {@code figure} is absolute (the hit ratio's default) rather than relative. */
    boolean absolute(final String figure) {
        return figure.equals("l1HitRatio") && bands.keySet().stream().noneMatch(p -> matches(p, figure));
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
            if (!figures.containsKey(k) && (only.isEmpty() || only.stream().anyMatch(p -> matches(p, k)))) {
                out.add(scenario + ": figure " + k + " is new (" + show(k, now.figures().get(k)) + ")");
            }
        }
        return out;
    }

    private String change(final String figure, final double was, final double now) {
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
