package dev.kvtier.lab.fidelity;

import dev.kvtier.lab.signoff.CpuShare;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.lab.run.Conditions;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.SideBySide;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.Locale;
import java.util.Optional;

/**
 * The held-out fidelity matrix: scenarios not used to calibrate, each run real and simulated on one calibration, and
 * the simulator's error over all of them: per kind of figure, the mean absolute percentage error (MAPE) of the
 * simulated median against the real one, the mean signed error and the worst figure; and the per-slot against
 * contiguous cold-TTFT ratio, real and simulated (the reference's regression, on this disk). The thresholds are the
 * issue's: phase-time MAPE at most 15 %, TTFT-mean MAPE at most 20 %, every phase time within 25 %.
 */
public final class Matrix {
    /** Phase-time MAPE allowed. */
    public static final double PHASE_MAPE = 0.15;
    /** TTFT-mean MAPE allowed. */
    public static final double TTFT_MEAN_MAPE = 0.20;
    /** Every phase time of every scenario within this. */
    public static final double PHASE_WORST = 0.25;

    /** The kinds of figures, in report order. */
    private static final List<String> KINDS = List.of("phase time", "TTFT mean", "TTFT p99", "bandwidth");

    private Matrix() {}

    /**
     * One held-out scenario.
     *
     * @param label    short name in the report
     * @param scenario library name or path
     * @param sets     overrides ({@code --set} syntax)
     */
    public record HeldOut(String label, String scenario, List<String> sets) {
        public HeldOut {
            sets = List.copyOf(sets);
        }

        /** This entry with {@code more} overrides after its own (a later one wins). */
        public HeldOut with(final List<String> more) {
            return more.isEmpty() ? this : new HeldOut(label, scenario, Stream.concat(sets.stream(), more.stream())
                .toList());
        }
    }

    /**
     * The default matrix, sized for a machine with about 20 GB of free memory: pr90-evict-small as it is, per slot
     * (coalescing off), with a small L1 (25 %: evicts and reads L2 heavily), a prefix-sharing Zipf workload of
     * 16 prompts of 2048 tokens, and real traffic: the first 40 requests of the Mooncake conversation trace at its
     * recorded rate, in an open loop with decode (one phase, so it has no store or load bandwidth figure).
     */
    public static final List<HeldOut> DEFAULT = List.of(
        new HeldOut("contiguous", "pr90-evict-small", List.of()),
        new HeldOut("per-slot", "pr90-evict-small", List.of("core.coalesceStoreSpans=false")),
        new HeldOut("small-l1", "pr90-evict-small", List.of("core.l1Fraction=0.25")),
        new HeldOut("zipf", "prefix-sharing-zipf", List.of("workload.prompts=16", "workload.inputTokens=2048",
            "workload.sharedPrefixTokens=1024", "workload.prefixGroups=4", "phase.0.requests=16",
            "phase.1.requests=64", "core.stagingBatchBytes=301989888", "core.stagingPoolBytes=603979776")),
        new HeldOut("trace", "mooncake-conversation-10min", List.of("workload.traceRequests=40",
            "workload.traceTimeScale=1")));

    /** One scenario's figures, how much of the machine each real run had, its byte work and its loop's time. */
    public record Entry(HeldOut heldOut, List<Fidelity.Figure> figures, List<CpuShare> cpu, List<ByteWork> work,
                        List<LoopTime> loop) {
        public Entry {
            figures = List.copyOf(figures);
            cpu = List.copyOf(cpu);
            work = List.copyOf(work);
            loop = List.copyOf(loop);
        }

        /** An entry whose real runs' loop time is not known. */
        public Entry(final HeldOut heldOut, final List<Fidelity.Figure> figures, final List<CpuShare> cpu,
                     final List<ByteWork> work) {
            this(heldOut, figures, cpu, work, List.of());
        }

        /** An entry whose real runs' byte work is not known. */
        public Entry(final HeldOut heldOut, final List<Fidelity.Figure> figures, final List<CpuShare> cpu) {
            this(heldOut, figures, cpu, List.of());
        }
    }

    /**
     * One kind of figure over the matrix.
     *
     * @param kind       {@code phase time}, {@code TTFT mean}, {@code TTFT p99} or {@code bandwidth}
     * @param figures    judged figures of this kind
     * @param mape       mean of |simulated / real - 1|
     * @param meanSigned mean of simulated / real - 1 (negative: the simulator is optimistic)
     * @param worst      the figure with the largest |deviation|, described
     */
    public record KindError(String kind, int figures, double mape, double meanSigned, String worst) {}

    /**
     * Of a kind's judged figures, how many have their simulated median inside the real runs' own range
     * ({@link Fidelity.Figure#insideRealRange}).
     */
    public record InsideRange(String kind, int inside, int figures) {}

    /** The per-slot over contiguous cold-TTFT mean ratio, real and simulated. */
    public record Regression(double real, double sim) {}

    /**
     * A matrix result.
     *
     * @param host        machine name
     * @param date        ISO date
     * @param seed        seed of the first repetition
     * @param repeats     repetitions of each scenario in each mode
     * @param device      the L2 file
     * @param deviceProfile the calibrated device profile
     * @param hostProfile the calibrated host profile
     * @param calibration what the calibration did and checked
     * @param diskSpread  the calibration's side-by-side rounds: fio's spread is the disk's own
     * @param entries     every scenario's figures
     * @param errors      per kind of figure
     * @param regression  per-slot / contiguous, or null when the matrix lacks one of them
     * @param reasons     the thresholds missed
     * @param pass        whether none was
     * @param judged      how it was judged: which matrix, its thresholds, the named biases, the gate against the
     *                    previous matrix on this host, and the conditions it ran on
     */
    public record Report(String host, String date, long seed, int repeats, String device, DeviceProfile deviceProfile,
                         HostCostProfile hostProfile, List<String> calibration,
                         List<SideBySide.Comparison> diskSpread, List<Entry> entries, List<KindError> errors,
                         Regression regression, List<String> reasons, boolean pass, Judged judged) {
        /** A report judged against the fixed matrix's thresholds, with no gate and no recorded conditions. */
        public Report(final String host, final String date, final long seed, final int repeats, final String device,
                      final DeviceProfile deviceProfile, final HostCostProfile hostProfile,
                      final List<String> calibration, final List<SideBySide.Comparison> diskSpread,
                      final List<Entry> entries, final List<KindError> errors, final Regression regression,
                      final List<String> reasons, final boolean pass) {
            this(host, date, seed, repeats, device, deviceProfile, hostProfile, calibration, diskSpread, entries,
                errors, regression, reasons, pass, new Judged("the fixed matrix", Thresholds.MATRIX,
                    biases(errors, Thresholds.MATRIX), List.of(), null));
        }
    }

    /**
     * How a matrix was judged.
     *
     * @param matrix     {@code the fixed matrix}, or {@code N held-out shapes drawn with seed S}
     * @param thresholds its thresholds
     * @param biases     the kinds whose mean signed error is beyond the bias allowed (named in the verdict)
     * @param gate       each kind against the previous matrix on this host, on the figures both predicted
     * @param conditions the CPUs, the disk's write cache and the other load it ran on (null: not recorded)
     */
    public record Judged(String matrix, Thresholds thresholds, List<String> biases, List<FidelityGate.Kind> gate,
                         Conditions conditions) {
        public Judged {
            biases = List.copyOf(biases);
            gate = List.copyOf(gate);
        }

        /** The verdict's words: PASS or FAIL, and what qualifies it (a bias named, a busy machine). */
        public String verdict(final boolean pass) {
            final List<String> notes = new ArrayList<>();
            if (!biases.isEmpty() && !thresholds.biasFails()) {
                notes.add("biased");
            }
            if (conditions != null && conditions.busy()) {
                notes.add("measured on a busy machine");
            }
            return (pass ? "PASS" : "FAIL") + (notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")");
        }
    }

    /** The kind of a figure, by its name. */
    static String kind(final Fidelity.Figure f) {
        if (f.name().startsWith("phase ")) {
            return "phase time";
        }
        if (f.name().startsWith("TTFT ")) {
            return f.name().endsWith(" mean") ? "TTFT mean" : "TTFT p99";
        }
        return "bandwidth";
    }

    /** The error per kind of figure over every judged figure of every entry. */
    public static List<KindError> errors(final List<Entry> entries) {
        final List<KindError> out = new ArrayList<>();
        for (final String kind : KINDS) {
            double abs = 0;
            double signed = 0;
            int n = 0;
            String worst = "-";
            double worstAbs = -1;
            for (final Entry e : entries) {
                for (final Fidelity.Figure f : e.figures()) {
                    if (!kind.equals(kind(f)) || !f.judged()) {
                        continue;
                    }
                    n++;
                    abs += Math.abs(f.deviation());
                    signed += f.deviation();
                    if (Math.abs(f.deviation()) > worstAbs) {
                        worstAbs = Math.abs(f.deviation());
                        worst = e.heldOut().label() + ": " + f.describe();
                    }
                }
            }
            out.add(new KindError(kind, n, n == 0 ? 0 : abs / n, n == 0 ? 0 : signed / n, worst));
        }
        return out;
    }

    /** Per kind of figure, the judged figures whose simulated median is inside the real runs' range. */
    public static List<InsideRange> insideRealRange(final List<Entry> entries) {
        final List<InsideRange> out = new ArrayList<>();
        for (final String kind : KINDS) {
            int inside = 0;
            int n = 0;
            for (final Entry e : entries) {
                for (final Fidelity.Figure f : e.figures()) {
                    if (kind.equals(kind(f)) && f.judged()) {
                        n++;
                        inside += f.insideRealRange() ? 1 : 0;
                    }
                }
            }
            out.add(new InsideRange(kind, inside, n));
        }
        return out;
    }

    /** Per-slot over contiguous cold-TTFT mean, when the matrix has both. */
    public static Optional<Regression> regression(final List<Entry> entries) {
        final Optional<Fidelity.Figure> slot = coldTtft(entries, "per-slot");
        final Optional<Fidelity.Figure> contiguous = coldTtft(entries, "contiguous");
        if (slot.isEmpty() || contiguous.isEmpty() || contiguous.get().realMedian() == 0
            || contiguous.get().simMedian() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Regression(slot.get().realMedian() / contiguous.get().realMedian(),
            slot.get().simMedian() / contiguous.get().simMedian()));
    }

    private static Optional<Fidelity.Figure> coldTtft(final List<Entry> entries, final String label) {
        return entries.stream().filter(e -> e.heldOut().label().equals(label)).flatMap(e -> e.figures().stream())
            .filter(f -> f.name().equals("TTFT cold mean")).findFirst();
    }

    /**
     * What a matrix must meet.
     *
     * @param name         {@code matrix} or {@code held-out}, for the report
     * @param phaseMape    phase-time MAPE allowed
     * @param ttftMeanMape TTFT-mean MAPE allowed
     * @param ttftP99Mape  TTFT-p99 MAPE allowed (infinite: not judged)
     * @param phaseWorst   every phase time within this
     * @param bias         the mean signed error of each kind within this, else the verdict names the bias
     * @param biasFails    whether a named bias fails the verdict (held-out) or only names it (the fixed matrix)
     */
    public record Thresholds(String name, double phaseMape, double ttftMeanMape, double ttftP99Mape,
                             double phaseWorst, double bias, boolean biasFails) {
        /** The fixed matrix's: phase 15 %, TTFT mean 20 %, every phase within 25 %; a bias beyond 3 % is named. */
        public static final Thresholds MATRIX = new Thresholds("matrix", PHASE_MAPE, TTFT_MEAN_MAPE,
            Double.POSITIVE_INFINITY, PHASE_WORST, 0.03, false);
        /** Held-out shapes': phase 5 %, TTFT mean 8 %, TTFT p99 12 %, every phase within 25 %, no bias beyond 3 %. */
        public static final Thresholds HELD_OUT = new Thresholds("held-out", 0.05, 0.08, 0.12, PHASE_WORST, 0.03,
            true);

        /** The MAPE allowed for {@code kind} (infinite when the kind is not judged by its MAPE). */
        public double mapeLimit(final String kind) {
            return switch (kind) {
                case "phase time" -> phaseMape;
                case "TTFT mean" -> ttftMeanMape;
                case "TTFT p99" -> ttftP99Mape;
                default -> Double.POSITIVE_INFINITY;
            };
        }
    }

    /** The thresholds missed, one line each, against the fixed matrix's thresholds. */
    public static List<String> reasons(final List<Entry> entries, final List<KindError> errors) {
        return reasons(entries, errors, Thresholds.MATRIX);
    }

    /** The thresholds missed, one line each (a bias only when {@code t} fails on it). */
    public static List<String> reasons(final List<Entry> entries, final List<KindError> errors, final Thresholds t) {
        final List<String> out = new ArrayList<>();
        for (final KindError e : errors) {
            final double limit = t.mapeLimit(e.kind());
            if (e.mape() > limit) {
                out.add(String.format(Locale.ROOT, "%s MAPE %.1f %% is above %.0f %%", e.kind(), 100 * e.mape(),
                    100 * limit));
            }
        }
        if (t.biasFails()) {
            out.addAll(biases(errors, t));
        }
        for (final Entry e : entries) {
            for (final Fidelity.Figure f : e.figures()) {
                if (kind(f).equals("phase time") && f.judged() && Math.abs(f.deviation()) > t.phaseWorst()) {
                    out.add(String.format(Locale.ROOT, "%s: %s (beyond +-%.0f %%)", e.heldOut().label(),
                        f.describe(), 100 * t.phaseWorst()));
                }
            }
        }
        return out;
    }

    /**
     * The kinds whose mean signed error is beyond {@code t}'s bias, one line each: the simulator errs one way on that
     * kind of figure ("optimistic": it predicts less time or more bandwidth than the real runs had).
     */
    public static List<String> biases(final List<KindError> errors, final Thresholds t) {
        final List<String> out = new ArrayList<>();
        for (final KindError e : errors) {
            if (e.figures() > 0 && Math.abs(e.meanSigned()) > t.bias()) {
                final boolean fast = e.kind().equals("bandwidth") ? e.meanSigned() > 0 : e.meanSigned() < 0;
                out.add(String.format(Locale.ROOT, "%s biased: mean signed error %+.1f %% (beyond +-%.0f %%), the "
                    + "simulator is %s", e.kind(), 100 * e.meanSigned(), 100 * t.bias(),
                    fast ? "optimistic"
                        : "pessimistic"));
            }
        }
        return out;
    }
}
