package dev.kvtier.lab.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.lab.signoff.Fidelity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The held-out thresholds, the bias check, the regression gate and the recorded conditions. */
class MatrixJudgeTest {
    private static final Matrix.HeldOut A = new Matrix.HeldOut("a", "pr90-evict-small", List.of());

    private static Matrix.Entry entry(final Matrix.HeldOut h, final double phaseRatio, final double ttftRatio) {
        return new Matrix.Entry(h, List.of(
            new Fidelity.Figure("phase cold time", "s", List.of(10.0), List.of(10.0 * phaseRatio), 0.15),
            new Fidelity.Figure("TTFT cold mean", "ms", List.of(100.0), List.of(100.0 * ttftRatio), 0.15),
            new Fidelity.Figure("TTFT cold p99", "ms", List.of(200.0), List.of(200.0 * ttftRatio), 0.15)), List.of());
    }

    @Test
    void shouldFailAHeldOutMatrixThatTheFixedMatrixPassesAndNameItsBias() {
        final List<Matrix.Entry> entries = List.of(entry(A, 0.94, 0.93));
        final List<Matrix.KindError> errors = Matrix.errors(entries);
        assertTrue(Matrix.reasons(entries, errors).isEmpty(), "6 % and 7 % pass the fixed matrix");
        final List<String> heldOut = Matrix.reasons(entries, errors, Matrix.Thresholds.HELD_OUT);
        assertTrue(heldOut.contains("phase time MAPE 6.0 % is above 5 %"), heldOut.toString());
        assertTrue(heldOut.stream().anyMatch(r -> r.startsWith("TTFT mean biased: mean signed error -7.0 %")
            && r.endsWith("the simulator is optimistic")), heldOut.toString());
        assertFalse(heldOut.stream().anyMatch(r -> r.startsWith("TTFT p99 MAPE")), "7 % is within 12 %");
        final Matrix.Judged fixed = new Matrix.Judged("the fixed matrix", Matrix.Thresholds.MATRIX,
            Matrix.biases(errors, Matrix.Thresholds.MATRIX), List.of(), null);
        assertEquals("PASS (biased)", fixed.verdict(true));
        final List<Matrix.KindError> slow = Matrix.errors(List.of(entry(A, 1.05, 1.01)));
        assertEquals(List.of("phase time biased: mean signed error +5.0 % (beyond +-3 %), the simulator is "
            + "pessimistic"), Matrix.biases(slow, Matrix.Thresholds.HELD_OUT));
        final List<Matrix.KindError> even = Matrix.errors(List.of(entry(A, 1.04, 1.0),
            entry(new Matrix.HeldOut("b", "x", List.of()), 0.96, 1.0)));
        assertTrue(Matrix.biases(even, Matrix.Thresholds.HELD_OUT).isEmpty(), "errors both ways are no bias");
        final Conditions busy = new Conditions(2, "0-1", "cpu", "write back", 0.9, 0.0, 60);
        assertEquals("FAIL (measured on a busy machine)", new Matrix.Judged("x", Matrix.Thresholds.HELD_OUT,
            List.of(), List.of(), busy).verdict(false));
    }

    @Test
    void shouldFlagAFidelityThatGotWorseOnTheFiguresBothPredicted(@TempDir final Path dir) throws Exception {
        final Matrix.Report before = new Matrix.Report("h", "2026-12-05", 1, 1, "/dev/null", null, null, List.of(),
            List.of(), List.of(entry(A, 0.98, 0.97)), List.of(), null, List.of(), true);
        final Path json = dir.resolve("fidelity.json");
        Files.writeString(json, dev.kvtier.lab.run.ReportJson.toJson(before));
        final List<FidelityGate.Kind> worse = FidelityGate.compare(json, List.of(entry(A, 0.95, 0.965),
            entry(new Matrix.HeldOut("new", "x", List.of()), 0.5, 0.5)));
        assertEquals(3, worse.size(), worse.toString());
        final FidelityGate.Kind phase = worse.getFirst();
        assertEquals(1, phase.figures(), "the new entry is not in the previous matrix");
        assertEquals(0.02, phase.before(), 1e-9);
        assertEquals(0.05, phase.now(), 1e-9);
        assertTrue(phase.flagged(), "2 -> 5 %: up 3 points and 150 %");
        assertFalse(worse.get(1).flagged(), "3 -> 3.5 %: under 2 points");
    }

    @Test
    void shouldReadBackTheConditionsAProfileRecordsAndTellWhatDiffers(@TempDir final Path dir) throws Exception {
        final Conditions then = new Conditions(2, "0-1", "Intel(R) Xeon(R) Processor", "write back", 0.1, 0.0, 30);
        final Path profile = dir.resolve("host.toml");
        Files.writeString(profile, "# kvtier host cost profile\n" + then.profileLine() + "\nname = \"x\"\n");
        final Conditions read = Conditions.fromProfile(profile).orElseThrow();
        assertEquals(List.of(), read.differences(then));
        final Conditions oneCore = new Conditions(2, "0", "Intel(R) Xeon(R) Processor", "write through", -1, -1, 0);
        assertEquals(List.of("affinity 0-1 then (2 CPUs), 0 now (1)",
            "disk write cache \"write back\" then, \"write through\" now"), read.differences(oneCore));
        assertTrue(Conditions.fromProfile(dir.resolve("none.toml")).isEmpty());
        final Conditions here = Conditions.start(dir).end();
        assertTrue(here.cpusOnline() >= 1 && !here.affinity().isEmpty(), here.describe());
        assertTrue(here.otherCpus() >= 0 && here.stealShare() >= 0, here.describe());
    }
}
