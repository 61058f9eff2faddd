package dev.kvtier.lab.calibrate;

import dev.kvtier.lab.run.Repeats;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The real run whose byte work gives a calibrated host profile its copy, checksum, fill and check bandwidths: the
 * real core on the disk under test, timed as it runs ({@link ByteWork}). A real run's bytes are spread over gigabytes
 * and each is touched again only seconds later, while the disk moves data; a microbenchmark's best-of over a small
 * area it just touched measured these 1.2 to 2.2 times faster than real runs paid on this project's VM, and the
 * simulated runs came out short by about the difference. The run's workload is its own ({@link #FULL}, or
 * {@link #QUICK} for a quick calibration), not one a sign-off or the fidelity matrix judges: a variant of
 * pr90-evict-small with 12 prompts at concurrency 3 and half the L1, so it evicts, and reads back from L2. It runs
 * twice, as it is and per slot ({@code core.coalesceStoreSpans=false}): the same bytes copied in many more, smaller
 * copies give the cost of a copy besides its bytes ({@link HostCalibration#withCopyCost}).
 */
public final class HostRun {
    /** The calibration run's workload: pr90-evict-small with these overrides. */
    public static final List<String> FULL = List.of("workload.prompts=12", "workload.concurrency=3",
        "phase.0.requests=12",
        "phase.1.requests=12", "core.l1Fraction=0.5", "faults.crashWithinEvents=0");
    /** A quick calibration's: 4 layers and 256-token prompts, a few MiB of KV. */
    public static final List<String> QUICK = List.of("model.layers=4", "workload.prompts=4", "workload.inputTokens=256",
        "phase.0.requests=4", "phase.1.requests=4", "core.stagingBatchBytes=1048576", "core.stagingPoolBytes=4194304",
        "faults.crashWithinEvents=0");
    private static final String SCENARIO = "pr90-evict-small";
    private static final long SEED = 0xCA1;

    private HostRun() {}

    /** The workload's overrides, as a note says them. */
    public static String describe(final boolean quick) {
        return SCENARIO + " " + String.join(" ", quick ? QUICK : FULL);
    }

    /** The per-slot run's extra override. */
    private static final String PER_SLOT = "core.coalesceStoreSpans=false";

    /**
     * Runs the calibration workload once (per slot with {@code perSlot}); its byte work and its loop's time, or empty
     * (the reason on stderr) when it could not run.
     */
    public static Optional<RealRun.Result> run(final Repeats.RealDevice t, final boolean quick, final boolean perSlot,
                                               final PrintStream out) {
        final Scenario sc;
        final List<String> sets = new ArrayList<>(quick ? QUICK : FULL);
        if (perSlot) {
            sets.add(PER_SLOT);
        }
        try {
            sc = ScenarioLoader.load(SCENARIO, sets);
        } catch (final ScenarioException e) {
            System.err.println("kvtier: the host calibration run's scenario: " + e.getMessage());
            return Optional.empty();
        }
        out.println("== host calibration run: " + describe(quick) + (perSlot ? " " + PER_SLOT : "") + " on "
            + t.device() + ", seed " + SEED);
        Repeats.settle(t.device(), out);
        final Optional<RealRun.Result> r = Repeats.realRun(sc, SEED, t, out);
        if (r.isEmpty()) {
            return Optional.empty();
        }
        if (!r.get().report().ok()) {
            System.err.println("kvtier: the host calibration run failed: " + r.get().report().violation());
            return Optional.empty();
        }
        out.println("host byte work on the loop thread: " + r.get().work().describe());
        out.println(r.get().loop().describe());
        return r;
    }

    /** Pairs of calibration runs (as it is, per slot) at least, and at most, before the byte work settles. */
    static final int PAIRS_MIN = 3;
    static final int PAIRS_MAX = 5;
    /** Settled: the last two kept pairs' rates within this of each other. */
    static final double SETTLED = 0.03;

    /**
     * The byte work of the calibration runs once it settled: pairs of runs (as it is, per slot) until the last two
     * kept pairs agree within {@link #SETTLED} on every rate, at least {@link #PAIRS_MIN} pairs (the first is a
     * warm-up and not kept: its JIT and first touches cost more) and at most {@link #PAIRS_MAX}; the kept pairs'
     * work summed, and each rate's spread over them.
     *
     * @param work        the kept runs as they are, summed
     * @param perSlot     the kept per-slot runs, summed
     * @param kept        each kept pair's work as it is
     * @param settled     whether the last two agreed within {@link #SETTLED}
     * @param loop        the kept runs' loop time as they are, summed
     * @param loopPerSlot the kept per-slot runs' loop time, summed
     */
    record Settled(ByteWork work, ByteWork perSlot, List<ByteWork> kept, boolean settled, LoopTime loop,
                   LoopTime loopPerSlot) {
        /** For example {@code byte work settled after 3 pairs of runs: copy 6.1-6.3 GB/s (3 %), ...}. */
        String describe() {
            final List<String> spread = new ArrayList<>();
            for (final String kind : work.byName().keySet()) {
                final List<Long> rates = kept.stream().map(w -> w.byName().get(kind).bytesPerSec()).filter(r -> r > 0)
                    .toList();
                if (!rates.isEmpty()) {
                    final long min = rates.stream().mapToLong(Long::longValue).min().orElseThrow();
                    final long max = rates.stream().mapToLong(Long::longValue).max().orElseThrow();
                    spread.add(String.format(Locale.ROOT, "%s %.2f-%.2f GB/s (%.1f %%)", kind, min / 1e9, max / 1e9,
                        100.0 * (max - min) / Math.max(1, min)));
                }
            }
            return String.format(Locale.ROOT, "byte work %s after %d pair(s) of runs (the first, a warm-up, not kept; "
                + "%d kept): %s", settled ? "settled within " + Math.round(100 * SETTLED) + " %" : "NOT settled",
                kept.size() + 1, kept.size(), String.join(", ", spread));
        }
    }

    /** Runs pairs until the byte work settles; empty (the reason on stderr) when a run failed. */
    static Optional<Settled> settle(final Repeats.RealDevice run, final boolean quick, final PrintStream out) {
        final List<ByteWork> kept = new ArrayList<>();
        final List<ByteWork> keptPerSlot = new ArrayList<>();
        final List<LoopTime> loops = new ArrayList<>();
        final List<LoopTime> loopsPerSlot = new ArrayList<>();
        final int min = quick ? 2 : PAIRS_MIN;
        for (int pair = 0; pair < PAIRS_MAX; pair++) {
            final Optional<RealRun.Result> work = run(run, quick, false, out);
            final Optional<RealRun.Result> perSlot = work.isEmpty() ? Optional.empty() : run(run, quick, true, out);
            if (perSlot.isEmpty()) {
                return Optional.empty();
            }
            if (pair == 0) {
                continue;
            }
            kept.add(work.get().work());
            keptPerSlot.add(perSlot.get().work());
            loops.add(work.get().loop());
            loopsPerSlot.add(perSlot.get().loop());
            final boolean settled = kept.size() >= 2 && agree(kept.get(kept.size() - 2), kept.getLast())
                && agree(keptPerSlot.get(keptPerSlot.size() - 2), keptPerSlot.getLast());
            if ((settled && pair + 1 >= min) || pair + 1 == PAIRS_MAX) {
                return Optional.of(new Settled(kept.stream().reduce(ByteWork::plus).orElseThrow(),
                    keptPerSlot.stream().reduce(ByteWork::plus).orElseThrow(), kept, settled,
                    loops.stream().reduce(LoopTime::plus).orElseThrow(),
                    loopsPerSlot.stream().reduce(LoopTime::plus).orElseThrow()));
            }
        }
        throw new IllegalStateException("unreachable: the last pair returns");
    }

    /** Whether every rate both runs measured is within {@link #SETTLED} of each other. */
    static boolean agree(final ByteWork a, final ByteWork b) {
        for (final String kind : a.byName().keySet()) {
            final long x = a.byName().get(kind).bytesPerSec();
            final long y = b.byName().get(kind).bytesPerSec();
            if (x > 0 && y > 0 && Math.abs(x - y) > SETTLED * Math.min(x, y)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Measures this machine's core (the microbenchmarks, then, with {@code run}, the byte work's bandwidths and the
     * cost of a copy from the calibration runs on it, as it is and per slot) and writes the host profile to
     * {@code hostToml}, which says where its figures came from; false (the reason on stderr) when a calibration run
     * failed.
     *
     * @param run where the calibration run runs, or null for the microbenchmarks' figures only
     */
    public static boolean measure(final String name, final long slotBytes, final boolean quick,
                                  final Repeats.RealDevice run,
                                  final Path hostToml, final PrintStream out) throws IOException {
        final HostCostProfile micro = HostCalibration.measure(name, slotBytes, quick);
        if (run == null) {
            OutputFile.writeString(hostToml, HostCalibration.toml(micro));
            return true;
        }
        final Optional<Settled> settled = settle(run, quick, out);
        if (settled.isEmpty()) {
            return false;
        }
        final Optional<ByteWork> work = Optional.of(settled.get().work());
        final Optional<ByteWork> perSlot = Optional.of(settled.get().perSlot());
        final HostCostProfile rates = HostCalibration.withCopyCost(HostCalibration.withByteRates(micro, work.get()),
            work.get().copy(), perSlot.get().copy());
        final long[] other = HostCalibration.otherWork(settled.get().loop(), settled.get().loopPerSlot());
        final HostCostProfile host = other == null ? rates : HostCalibration.withOtherWork(rates, other[0], other[1]);
        final String otherNote = otherWorkNote(settled.get(), other, micro);
        OutputFile.writeString(hostToml, HostCalibration.toml(host, List.of(
            "byte work bandwidths from a real run of " + describe(quick) + " on " + run.device() + ": "
                + work.get().describe(),
            String.format(Locale.ROOT, "copies: %s in %d copies there, %s in %d copies per slot (%s): %.2f GB/s and"
                + " %.0f us a copy", work.get().copy().describe(), work.get().copy().operations(),
                perSlot.get().copy().describe(), perSlot.get().copy().operations(), PER_SLOT,
                host.memcpyBytesPerSec() / 1e9, host.copyOpNs() / 1e3),
            settled.get().describe(),
            otherNote,
            String.format(Locale.ROOT, "the microbenchmarks' figures (best of rounds on a small area just touched):"
                + " memcpy %.2f GB/s, checksum %.2f GB/s, after a copy %.2f GB/s, fill %.2f GB/s, check %.2f GB/s",
                micro.memcpyBytesPerSec() / 1e9, micro.checksumBytesPerSec() / 1e9,
                micro.checksumCopiedBytesPerSec() / 1e9, micro.stampBytesPerSec() / 1e9,
                micro.verifyBytesPerSec() / 1e9))));
        out.printf(Locale.ROOT, "host %s: byte work from the calibration runs: memcpy %.2f GB/s and %.0f us a copy,"
            + " checksum %.2f GB/s, after a copy %.2f GB/s, fill %.2f GB/s, check %.2f GB/s -> %s%n", host.name(),
            host.memcpyBytesPerSec() / 1e9, host.copyOpNs() / 1e3, host.checksumBytesPerSec() / 1e9,
            host.checksumCopiedBytesPerSec() / 1e9, host.stampBytesPerSec() / 1e9, host.verifyBytesPerSec() / 1e9,
            hostToml);
        out.println("host " + host.name() + ": " + otherNote);
        return true;
    }

    /** Where the profile's per-event cost and its other work per byte work came from. */
    static String otherWorkNote(final Settled s, final long[] other, final HostCostProfile micro) {
        final String runs = "the loop's other work in the calibration runs: " + s.loop().describe() + " as it is; "
            + s.loopPerSlot().describe() + " per slot";
        if (other == null) {
            return runs + "; not charged (its time on a CPU unknown): eventNs is the observers' microbenchmark's, "
                + micro.eventNs() + " ns";
        }
        return String.format(Locale.ROOT, "%s; charged as %.1f us an event and %.2f %% of the byte work's time"
            + " (the observers' microbenchmark alone: %d ns an event)", runs, other[0] / 1e3, other[1] / 1e4,
            micro.eventNs());
    }
}
