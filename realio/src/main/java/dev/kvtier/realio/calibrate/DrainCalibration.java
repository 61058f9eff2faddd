package dev.kvtier.realio.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.WriteBack;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The disk's write-back cache ({@link DeviceProfile#drainBytesPerSec}, {@link DeviceProfile#drainDelayNs}), fitted
 * to FLUSHes timed after write passes of three shapes: full passes with the FLUSH at once, smaller passes with a wait
 * before it (how long the cache holds what it was given), and full passes written in four bursts with pauses between
 * them (the pace of a run that writes between computing). The fit is the pair of {@link WriteBack} whose FLUSH times
 * are closest to the measured ones (least mean absolute error over a grid); that error is the disk's own spread as
 * the model sees it, and goes into the notes.
 *
 * <p>Measured on this project's VM (2026-12-02): a FLUSH right after 256 MiB took about 120 ms and right after 1 GiB
 * about 450 ms, the same after a wait of 0.5 s; after a wait of 3 s it took 1 ms; after 4.5 GiB written in 1.0-1.5 s,
 * 1.5-2.0 s. The host holds what it was given for seconds and writes it back when asked: a cache that drained from
 * the start (no delay) predicted a run's FLUSH at 0.4-0.7 s where it took 0.6-2.1 s.
 */
public final class DrainCalibration {
    private static final long MIB = 1 << 20;
    /** Completions merged into one step of the model (the fit's cost grows with the steps). */
    private static final long STEP_BYTES = 64 * MIB;
    private static final long DELAY_STEP_NS = 100_000_000L;
    private static final long DELAY_MAX_NS = 8_000_000_000L;
    private static final long RATE_MIN = 250_000_000L;
    private static final long RATE_MAX = 64_000_000_000L;
    private static final double RATE_STEP = 1.04;

    /**
     * The passes to time.
     *
     * @param passes        full write passes, each followed at once by a FLUSH (the first is the preconditioning fill)
     * @param waitPassBytes size of each waited pass (at most the file)
     * @param waitsNs       one waited pass per entry: written, then this wait, then the FLUSH
     * @param gapsNs        one paced pass per entry: the whole file in four bursts with this pause after each of the
     *                      first three, then the FLUSH
     */
    public record Plan(int passes, long waitPassBytes, List<Long> waitsNs, List<Long> gapsNs) {
        public Plan {
            waitsNs = List.copyOf(waitsNs);
            gapsNs = List.copyOf(gapsNs);
            if (passes <= 0 || waitPassBytes < 0 || waitPassBytes % 4096 != 0
                || (!waitsNs.isEmpty() && waitPassBytes == 0)
                || waitsNs.stream().anyMatch(w -> w < 0) || gapsNs.stream().anyMatch(g -> g < 0)) {
                throw new IllegalArgumentException("bad drain plan: " + passes + " passes, waited passes of "
                    + waitPassBytes + " B after " + waitsNs + " ns, paced passes with gaps of " + gapsNs + " ns");
            }
        }
    }

    /** Bytes that reached the cache at {@code doneNs} (nanoseconds after the pass began). */
    record Step(long doneNs, long bytes) {}

    /**
     * One timed pass.
     *
     * @param label     for the notes
     * @param steps     its writes' completions, in order (merged into steps of at least 64 MiB)
     * @param flushAtNs when the FLUSH was issued, nanoseconds after the pass began
     * @param flushNs   how long the FLUSH took
     */
    record Sample(String label, List<Step> steps, long flushAtNs, long flushNs) {
        Sample {
            steps = List.copyOf(steps);
            if (steps.isEmpty()) {
                throw new IllegalArgumentException("a timed pass without writes");
            }
        }

        /** A sample of {@code pass}, its FLUSH issued {@code waitedNs} after it ended and taking {@code flushNs}. */
        static Sample of(final String label, final WritePass pass, final long waitedNs, final long flushNs) {
            final List<Step> steps = new ArrayList<>();
            long sum = 0;
            for (int i = 0; i < pass.writes(); i++) {
                sum += pass.bytes(i);
                if (sum >= STEP_BYTES || i == pass.writes() - 1) {
                    steps.add(new Step(pass.doneNs(i), sum));
                    sum = 0;
                }
            }
            return new Sample(label, steps, pass.writeNs() + waitedNs, flushNs);
        }

        long totalBytes() {
            return steps.stream().mapToLong(Step::bytes).sum();
        }

        long writtenNs() {
            return steps.getLast().doneNs();
        }
    }

    /**
     * The fitted pair, the model's FLUSH for each sample, the mean absolute error, and the samples' mean FLUSH.
     */
    record Fit(long bytesPerSec, long delayNs, List<Long> modelNs, long meanAbsErrorNs, long meanFlushNs) {
        /** Below this the model's mean error is the disk's jitter, whatever the FLUSHes' size. */
        private static final long ERRATIC_MIN_NS = 50_000_000L;

        /**
         * Whether no rate and delay come close: the model's FLUSH is off by more than 50 ms and more than a tenth of
         * the mean FLUSH on average, so the disk's write-back does not follow its writes (a host that writes back at
         * moments of its own). Measured on this project's VM: 182-363 ms against mean FLUSHes of 0.74-1.19 s on a
         * day it did (2026-12-02, three sittings), 1 ms on a day it did not (2026-12-03, every FLUSH 0-2 ms).
         */
        boolean erratic() {
            return meanAbsErrorNs > ERRATIC_MIN_NS && meanAbsErrorNs * 10 > meanFlushNs;
        }
    }

    private DrainCalibration() {}

    /** The FLUSH time {@link WriteBack} gives {@code s} with that rate and delay. */
    static long modelFlushNs(final Sample s, final long bytesPerSec, final long delayNs) {
        final WriteBack cache = new WriteBack(bytesPerSec, delayNs);
        for (final Step step : s.steps()) {
            cache.wrote(step.doneNs(), step.doneNs(), step.bytes());
        }
        return cache.flush(s.flushAtNs()) - s.flushAtNs();
    }

    /**
     * The rate and delay whose FLUSH times are closest to the samples': a coarse grid (delays 0-8 s by 100 ms, rates
     * 0.25-64 GB/s by 4 %), then a fine one around its best (delays by 10 ms within 200 ms, rates by 0.2 % within 4 %).
     * Ties go to the shorter delay, then the lower rate.
     */
    static Fit fit(final List<Sample> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no timed FLUSH to fit");
        }
        final long[] coarse = search(samples, 0, DELAY_MAX_NS, DELAY_STEP_NS, RATE_MIN, RATE_MAX, RATE_STEP);
        final long[] fine = search(samples, Math.max(0, coarse[1] - 2 * DELAY_STEP_NS), coarse[1] + 2 * DELAY_STEP_NS,
            DELAY_STEP_NS / 10, coarse[0] / RATE_STEP, coarse[0] * RATE_STEP, 1.002);
        final List<Long> model = new ArrayList<>();
        for (final Sample s : samples) {
            model.add(modelFlushNs(s, fine[0], fine[1]));
        }
        final long flushes = samples.stream().mapToLong(Sample::flushNs).sum();
        return new Fit(fine[0], fine[1], model, fine[2] / samples.size(), flushes / samples.size());
    }

    /** The best {rate, delay, summed absolute error} over a grid. */
    private static long[] search(final List<Sample> samples, final long delayFrom, final long delayTo,
                                 final long delayStep, final double rateFrom, final double rateTo,
                                 final double rateStep) {
        final long[] best = {0, 0, Long.MAX_VALUE};
        for (long delay = delayFrom; delay <= delayTo; delay += delayStep) {
            for (double rate = rateFrom; rate <= rateTo; rate *= rateStep) {
                long error = 0;
                for (final Sample s : samples) {
                    error += Math.abs(modelFlushNs(s, (long) rate, delay) - s.flushNs());
                }
                if (error < best[2]) {
                    best[0] = (long) rate;
                    best[1] = delay;
                    best[2] = error;
                }
            }
        }
        return best;
    }

    /**
     * Times the plan's passes on {@code meter} (the first full pass, the preconditioning fill {@code first} and its
     * FLUSH {@code firstFlushNs}, already done), fits, logs and notes it.
     */
    static Fit measure(final IoMeter meter, final long fileBytes, final Plan plan, final WritePass first,
                       final long firstFlushNs, final PrintStream log, final List<String> notes) {
        final long block = Math.min(4 * MIB, fileBytes);
        final List<Sample> samples = new ArrayList<>();
        samples.add(Sample.of("full", first, 0, firstFlushNs));
        for (int i = 1; i < plan.passes(); i++) {
            final WritePass p = meter.pass(block, fileBytes, fileBytes, 0);
            samples.add(Sample.of("full", p, 0, meter.flushNs()));
        }
        for (final long wait : plan.waitsNs()) {
            final long bytes = Math.min(plan.waitPassBytes(), fileBytes);
            final WritePass p = meter.pass(block, bytes, bytes, 0);
            IoMeter.pause(wait);
            samples.add(Sample.of(String.format(Locale.ROOT, "wait %.2f s", wait / 1e9), p, wait, meter.flushNs()));
        }
        for (final long gap : plan.gapsNs()) {
            final WritePass p = meter.pass(block, fileBytes, Math.max(block, fileBytes / 4 / block * block), gap);
            samples.add(Sample.of(String.format(Locale.ROOT, "4 bursts, gaps %.2f s", gap / 1e9), p, 0,
                meter.flushNs()));
        }
        final Fit fit = fit(samples);
        final StringBuilder each = new StringBuilder();
        for (int i = 0; i < samples.size(); i++) {
            final Sample s = samples.get(i);
            each.append(String.format(Locale.ROOT, "%s%s: %d MiB written in %.0f ms, FLUSH %.0f ms (model %.0f)",
                i == 0 ? "" : "; ", s.label(), s.totalBytes() / MIB, s.writtenNs() / 1e6, s.flushNs() / 1e6,
                fit.modelNs().get(i) / 1e6));
        }
        final String note = String.format(Locale.ROOT, "drain: %d timed FLUSHes after write passes (%s): the cache "
            + "writes back at %.3f GB/s, on its own %.1f s after a write; the model's FLUSH is off by %.0f ms on "
            + "average "
            + "(the disk's own spread, as the model sees it)", samples.size(), each, fit.bytesPerSec() / 1e9,
            fit.delayNs() / 1e9, fit.meanAbsErrorNs() / 1e6);
        log.println(note);
        notes.add(note);
        if (fit.erratic()) {
            final String warning = String.format(Locale.ROOT,
                "drain: ERRATIC: the disk's write-back does not follow its writes (the best model's FLUSH is off "
                    + "by %.0f ms on average, against a mean FLUSH of %.0f ms): a simulated FLUSH, such as the "
                    + "index's at the end of a phase, and the phase after it may be off by that much either way; "
                    + "figures that pass or fail on it are the disk's as much as the model's",
                fit.meanAbsErrorNs() / 1e6, fit.meanFlushNs() / 1e6);
            log.println(warning);
            notes.add(warning);
        }
        return fit;
    }
}
