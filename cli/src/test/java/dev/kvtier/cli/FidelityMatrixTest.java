package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.signoff.CpuShare;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.lab.fidelity.Matrix;
import dev.kvtier.lab.fidelity.MatrixFiles;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The matrix's arithmetic and files, on simulated runs standing in for real ones (no disk needed). */
class FidelityMatrixTest {

    @Test
    void shouldReportMapeSignedErrorTheRegressionAndTheThresholds(@TempDir final Path dir) throws Exception {
        final Matrix.HeldOut contiguous = Matrix.DEFAULT.get(0);
        final Matrix.HeldOut perSlot = Matrix.DEFAULT.get(1);
        assertEquals(List.of("contiguous", "per-slot", "small-l1", "zipf", "trace"),
            Matrix.DEFAULT.stream().map(Matrix.HeldOut::label).toList());
        final Matrix.Entry exact = entry(contiguous, List.of(), List.of());
        final Matrix.Entry off = entry(perSlot, List.of(), List.of("sim.device=datacenter-nvme"));
        final List<Matrix.KindError> errors = Matrix.errors(List.of(exact, off));
        final Matrix.KindError phase = errors.getFirst();
        assertEquals("phase time", phase.kind());
        assertEquals(4, phase.figures(), "two phases in each of two scenarios");
        final double expected = off.figures().stream().filter(f -> f.name().startsWith("phase "))
            .mapToDouble(f -> Math.abs(f.deviation())).sum() / 4;
        assertEquals(expected, phase.mape(), 1e-12);
        assertTrue(phase.meanSigned() < 0, "a faster device makes the simulator optimistic");
        assertTrue(phase.worst().startsWith("per-slot: phase "), phase.worst());
        final Matrix.Regression reg = Matrix.regression(List.of(exact, off)).orElseThrow();
        assertEquals(ttft(off, true) / ttft(exact, true), reg.real(), 1e-12);
        assertEquals(ttft(off, false) / ttft(exact, false), reg.sim(), 1e-12);
        assertTrue(Matrix.regression(List.of(exact)).isEmpty(), "no per-slot entry, no regression");
        final List<String> reasons = Matrix.reasons(List.of(exact, off), errors);
        assertFalse(reasons.isEmpty());
        assertTrue(Matrix.reasons(List.of(exact), Matrix.errors(List.of(exact))).isEmpty());
        final Matrix.Report r = new Matrix.Report("h", "2026-12-01", 1, 1, "/dev/null", DeviceProfile.CI_EXT4,
            HostCostProfile.JAVA_CORE, List.of("a note"), List.of(), List.of(exact, off), errors, reg, reasons,
            false);
        final List<Path> files = MatrixFiles.write(r, dir);
        assertEquals(List.of(dir.resolve("fidelity.json"), dir.resolve("fidelity.md"), dir.resolve("ratios.png")),
            files);
        final String md = Files.readString(dir.resolve("fidelity.md"));
        assertTrue(md.endsWith("![ratios.png](ratios.png)\n"), "the plot beside the report, linked by its name");
        assertTrue(md.contains("| phase time | 4 | "), md);
        assertTrue(md.contains("Per-slot / contiguous cold TTFT (mean): real "), md);
        final List<Matrix.InsideRange> inside = Matrix.insideRealRange(List.of(exact, off));
        assertEquals(new Matrix.InsideRange("phase time", 2, 4), inside.getFirst(),
            "the exact entry's two phases inside (one real run: the range is its value), the off entry's outside");
        assertTrue(md.contains("Simulated medians inside the real runs' own range (their min .. max: what the disk"
            + " and the host varied from one real repetition to the next): phase time 2 of 4, TTFT mean "), md);
        assertTrue(md.contains("| sim / real - 1 | inside real's range |"), md);
        assertTrue(
            md.contains("contiguous real run seed 1: 0.0 s wall, 0.0 s on a CPU, 0.0 s waiting for one (20 %) -- "
                + "**a busy machine**"),
            md);
        assertTrue(Files.size(dir.resolve("ratios.png")) > 0);
    }

    @Test
    void shouldTellWhetherTheSimulatedMedianIsInsideTheRealRunsRange() {
        final List<Double> real = List.of(1.0, 3.0, 2.0);
        assertTrue(new Fidelity.Figure("f", "s", real, List.of(2.9, 2.9, 2.9), 0.15).insideRealRange());
        assertTrue(new Fidelity.Figure("f", "s", real, List.of(1.0, 1.0, 9.0), 0.15).insideRealRange(),
            "the bounds count, and the median is what is judged");
        assertFalse(new Fidelity.Figure("f", "s", real, List.of(3.1, 3.1, 3.1), 0.15).insideRealRange());
        assertFalse(new Fidelity.Figure("f", "s", real, List.of(0.5, 0.9, 4.0), 0.15).insideRealRange());
    }

    private static Matrix.Entry entry(final Matrix.HeldOut h, final List<String> real,
                                      final List<String> sim) throws Exception {
        final Scenario a = ScenarioLoader.load(h.scenario(), concat(h.sets(), real));
        final Scenario b = ScenarioLoader.load(h.scenario(), concat(h.sets(), sim));
        final List<RunReport> ra = List.of(new SimRun(a.spec(), a.sim(), 1, List.of()).run());
        final List<RunReport> rb = List.of(new SimRun(b.spec(), b.sim(), 1, List.of()).run());
        return new Matrix.Entry(h, Fidelity.figures(ra, rb, a.signoff()), List.of(new CpuShare(1, 10, 5, 2, -1)));
    }

    private static double ttft(final Matrix.Entry e, final boolean real) {
        final Fidelity.Figure f = e.figures().stream().filter(x -> x.name().equals("TTFT cold mean")).findFirst()
            .orElseThrow();
        return real ? f.realMedian() : f.simMedian();
    }

    private static List<String> concat(final List<String> a, final List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
