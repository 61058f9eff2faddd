package dev.kvtier.lab.signoff;

import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The simulator's fidelity, figure by figure, over repeated real and simulated runs: each phase's time, each phase's
 * TTFT mean and p99, store bandwidth (stored bytes over the cold phase) and load bandwidth (loaded bytes over the
 * phases after the first: the warm phase of the pr90 scenarios, a Zipf workload's second phase). A figure is judged
 * on medians: simulated median over real median, within the scenario's band for that kind of figure
 * ({@link Scenario.Signoff}). A figure whose real median is 0 (a phase the scenario does not have) is not judged.
 */
public final class Fidelity {
    private Fidelity() {}

    /**
     * One figure over the repetitions.
     *
     * @param name what it is ({@code phase warm time}, {@code TTFT cold p99}, {@code store bandwidth})
     * @param unit {@code s}, {@code ms} or {@code GB/s}; the values are in that unit
     * @param real the real runs' values, in run order
     * @param sim  the simulated runs' values, in run order
     * @param band the allowed deviation of the simulated median from the real median, a fraction either side
     */
    public record Figure(String name, String unit, List<Double> real, List<Double> sim, double band) {
        public Figure {
            real = List.copyOf(real);
            sim = List.copyOf(sim);
            if (real.isEmpty() || real.size() != sim.size() || !(band > 0)) {
                throw new IllegalArgumentException(name + ": " + real.size() + " real and " + sim.size()
                    + " simulated values, band " + band);
            }
        }

        public double realMedian() {
            return median(real);
        }

        public double simMedian() {
            return median(sim);
        }

        /** Simulated median over real median, minus 1 (0 is exact); NaN when the real median is 0. */
        public double deviation() {
            return realMedian() == 0 ? Double.NaN : simMedian() / realMedian() - 1;
        }

        /** Whether the figure is judged and inside its band. */
        public boolean judged() {
            return !Double.isNaN(deviation());
        }

        /**
         * Whether the simulated median lies within the real runs' own range (their min .. max): a deviation no larger
         * than what the disk and the host varied from one real repetition to the next.
         */
        public boolean insideRealRange() {
            final double m = simMedian();
            return real.stream().anyMatch(v -> v <= m) && real.stream().anyMatch(v -> v >= m);
        }

        public boolean inBand() {
            return !judged() || Math.abs(deviation()) <= band;
        }

        /** For example {@code phase warm time: simulated 0.40 s, real 1.21 s (-67 %, band +-15 %)}. */
        public String describe() {
            return String.format(Locale.ROOT, "%s: simulated %s %s, real %s %s (%s, band +-%.0f %%)", name,
                format(simMedian()), unit, format(realMedian()), unit, judged() ? String.format(Locale.ROOT,
                    "%+.0f %%", 100 * deviation()) : "not judged: the real figure is 0",
                100 * band);
        }

        /** For example {@code 1.21 (1.10 .. 1.30)}: the median and the range of {@code values}. */
        public static String spread(final List<Double> values) {
            final double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            final double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return format(median(values)) + " (" + format(min) + " .. " + format(max) + ")";
        }
    }

    /** Every figure of paired repetitions ({@code real.get(i)} and {@code sim.get(i)} ran with the same seed). */
    public static List<Figure> figures(final List<RunReport> real, final List<RunReport> sim,
                                       final Scenario.Signoff t) {
        if (real.isEmpty() || real.size() != sim.size()) {
            throw new IllegalArgumentException(real.size() + " real and " + sim.size() + " simulated runs");
        }
        final List<Figure> out = new ArrayList<>();
        for (final RunReport.Phase p : real.getFirst().phases()) {
            out.add(figure("phase " + p.name() + " time", "s", real, sim, r -> phaseNanos(r, p.name()) / 1e9,
                t.phaseBand()));
        }
        for (final String phase : real.getFirst().metrics().ttftNanos().keySet().stream().sorted().toList()) {
            out.add(figure("TTFT " + phase + " mean", "ms", real, sim, r -> ttft(r, phase).mean() / 1e6,
                t.ttftMeanBand()));
            out.add(figure("TTFT " + phase + " p99", "ms", real, sim, r -> ttft(r, phase).p99() / 1e6,
                t.ttftP99Band()));
        }
        out.add(figure("store bandwidth", "GB/s", real, sim, Fidelity::storeGbps, t.bandwidthBand()));
        out.add(figure("load bandwidth", "GB/s", real, sim, Fidelity::loadGbps, t.bandwidthBand()));
        return out;
    }

    /** The figures outside their bands, one line each. */
    public static List<String> outside(final List<Figure> figures) {
        return figures.stream().filter(f -> !f.inBand()).map(f -> "fidelity: " + f.describe()).toList();
    }

    private static Figure figure(final String name, final String unit, final List<RunReport> real,
                                 final List<RunReport> sim, final ToDoubleFunction<RunReport> value,
                                 final double band) {
        return new Figure(name, unit, real.stream().mapToDouble(value).boxed().toList(),
            sim.stream().mapToDouble(value).boxed().toList(), band);
    }

    private static long phaseNanos(final RunReport r, final String name) {
        return r.phases().stream().filter(p -> p.name().equals(name)).mapToLong(RunReport.Phase::durationNanos)
            .findFirst().orElse(0);
    }

    private static Percentiles ttft(final RunReport r, final String phase) {
        final Percentiles p = r.metrics().ttftNanos().get(phase);
        return p != null ? p : new Percentiles(0, 0, 0, 0, 0, 0, 0, 0, List.of());
    }

    private static double storeGbps(final RunReport r) {
        return r.metrics().coldPhaseNanos() == 0 ? 0 : r.metrics().storedBytes() / (double) r.metrics()
            .coldPhaseNanos();
    }

    /** Loaded bytes over the phases after the first (the warm phase of the pr90 scenarios; a Zipf's second). */
    static double loadGbps(final RunReport r) {
        final long nanos = r.phases().stream().skip(1).mapToLong(RunReport.Phase::durationNanos).sum();
        return nanos == 0 ? 0 : r.metrics().loadedBytes() / (double) nanos;
    }

    /** The median (the mean of the two middle values of an even count). */
    public static double median(final List<Double> values) {
        final List<Double> sorted = values.stream().sorted().toList();
        final int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static String format(final double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f" : "%.3f", v);
    }
}
