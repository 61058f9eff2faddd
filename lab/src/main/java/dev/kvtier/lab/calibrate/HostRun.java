package dev.kvtier.lab.calibrate;

import dev.kvtier.lab.run.Repeats;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.memory.ByteWork;
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
     * Runs the calibration workload once (per slot with {@code perSlot}); its byte work, or empty (the reason on
     * stderr) when it could not run.
     */
    public static Optional<ByteWork> run(final Repeats.RealDevice t, final boolean quick, final boolean perSlot,
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
        return Optional.of(r.get().work());
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
        final Optional<ByteWork> work = run(run, quick, false, out);
        final Optional<ByteWork> perSlot = work.isEmpty() ? Optional.empty() : run(run, quick, true, out);
        if (perSlot.isEmpty()) {
            return false;
        }
        final HostCostProfile host = HostCalibration.withCopyCost(HostCalibration.withByteRates(micro, work.get()),
            work.get().copy(), perSlot.get().copy());
        OutputFile.writeString(hostToml, HostCalibration.toml(host, List.of(
            "byte work bandwidths from a real run of " + describe(quick) + " on " + run.device() + ": "
                + work.get().describe(),
            String.format(Locale.ROOT, "copies: %s in %d copies there, %s in %d copies per slot (%s): %.2f GB/s and"
                + " %.0f us a copy", work.get().copy().describe(), work.get().copy().operations(),
                perSlot.get().copy().describe(), perSlot.get().copy().operations(), PER_SLOT,
                host.memcpyBytesPerSec() / 1e9, host.copyOpNs() / 1e3),
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
        return true;
    }
}
