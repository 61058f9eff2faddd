package dev.kvtier.cli;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.realio.calibrate.HostCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code kvtier fidelity} end to end on a real file: two entries of the matrix shrunk with {@code --set} (4 layers, 4
 * prompts of 256 tokens), real and simulated, on given profiles (no calibration), and the files it writes.
 */
class FidelityCommandTest {
    private static final List<String> SHRINK = List.of("--set", "model.layers=4", "--set", "workload.prompts=4",
        "--set", "workload.inputTokens=256", "--set", "phase.0.requests=4", "--set", "phase.1.requests=4", "--set",
        "core.stagingBatchBytes=1048576", "--set", "core.stagingPoolBytes=4194304", "--set",
        "faults.crashWithinEvents=0");

    private static String[] args(final Path dir, final Path results, final Path device, final String... more) {
        return Stream.concat(Stream.of("fidelity", "--device", dir.resolve("l2.bin").toString(), "--results",
            results.toString(), "--profile", device.toString(), "--host-profile", dir.resolve("host.toml").toString(),
            "--no-fio", "--repeat", "1", "--only", "contiguous", "--only", "per-slot"),
            Stream.concat(SHRINK.stream(),
                Stream.of(more)))
            .toArray(String[]::new);
    }

    @Test
    void shouldRunTheMatrixRealAndSimulatedAndFailOnAWrongProfile(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("host.toml"), HostCalibration.toml(HostCostProfile.JAVA_CORE));
        final Path wrong = dir.resolve("wrong.toml");
        Files.writeString(wrong, TinyScenario.WRONG_PROFILE + "drainBytesPerSec = 1000000\n");
        final Path results = dir.resolve("results");
        assertEquals(ExitCodes.GATE, Main.execute(args(dir, results, wrong)));
        final List<Path> folders = folders(results);
        assertEquals(1, folders.size(), folders.toString());
        assertTrue(folders.getFirst().getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-\\d{4}-fidelity-.+"),
            folders.toString());
        final Path json = folders.getFirst().resolve("fidelity.json");
        final JsonNode r = ReportJson.mapper().readTree(Files.readString(json));
        assertFalse(r.get("pass").booleanValue());
        assertEquals(1_000_000L, r.get("deviceProfile").get("drainBytesPerSec").longValue());
        final JsonNode entries = r.get("entries");
        assertEquals(2, entries.size());
        assertEquals("per-slot", entries.get(1).get("heldOut").get("label").stringValue());
        assertTrue(entries.get(1).get("heldOut").get("sets").toString().contains("model.layers=4"),
            entries.get(1).toString());
        assertTrue(r.get("regression").get("real").doubleValue() > 0, r.get("regression").toString());
        assertTrue(entries.get(1).get("cpu").get(0).get("settleNs").longValue() >= 0,
            "the second entry's real run starts on a disk the first one wrote, settled by a FLUSH: " + entries);
        assertTrue(r.get("reasons").toString().contains("MAPE"), r.get("reasons").toString());
        final String md = Files.readString(json.resolveSibling("fidelity.md"));
        assertTrue(md.contains("**Verdict: FAIL"), md);
        assertTrue(md.contains("The fixed matrix, judged on the matrix thresholds: phase-time MAPE at most 15 %"), md);
        assertTrue(md.contains("\nConditions: "), md);
        assertTrue(md.contains("- per-slot: `pr90-evict-small` with `core.coalesceStoreSpans=false model.layers=4"),
            md);
        assertTrue(Files.size(json.resolveSibling("ratios.png")) > 0);
        final ResultInfo info = ResultInfo.read(folders.getFirst());
        assertEquals(List.of("fidelity", "fidelity", "FAIL"), List.of(info.kind(), info.scenario(), info.verdict()));
        assertNull(info.supersedes());
        assertNull(info.why(), "no --why");
        assertTrue(info.headline().containsKey("phase time MAPE / mean signed"), info.headline().toString());
        assertEquals(ExitCodes.BAD_INPUT, Main.execute(args(dir, results, wrong, "--set", "core.nope=1")),
            "a bad override is refused before any run");
        assertEquals(folders, folders(results), "nothing written");
    }

    /**
     * A sitting that calibrates the disk (the quick plan) measures the profile's two bandwidth cells again before each
     * entry's real runs and after the last, on the calibration's scratch file, and says how far the disk moved.
     */
    @Test
    void shouldRecheckTheDiskBeforeEachEntryAndAfterTheLastWhenItCalibrated(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("host.toml"), HostCalibration.toml(HostCostProfile.JAVA_CORE));
        final Path results = dir.resolve("results");
        final List<String> a = new java.util.ArrayList<>(List.of("fidelity", "--device",
            dir.resolve("l2.bin").toString(), "--results", results.toString(), "--quick-calibration",
            "--host-profile", dir.resolve("host.toml").toString(), "--no-fio", "--repeat", "1", "--only",
            "contiguous"));
        a.addAll(SHRINK);
        final int code = Main.execute(a.toArray(String[]::new));
        assertTrue(code == ExitCodes.OK || code == ExitCodes.GATE, "ran to a verdict: " + code);
        final String md = Files.readString(folders(results).getFirst().resolve("fidelity.md"));
        assertTrue(md.contains("the disk during the sitting (the profile's two bandwidth cells measured again 2 "
            + "time(s), before each scenario's real runs and after the last"), md);
        assertTrue(md.contains("the disk, recheck by recheck: before contiguous: read "), md);
        assertTrue(md.contains("; after the last: read "), md);
        assertFalse(Files.exists(dir.resolve("l2.bin.calibration")), "the scratch file this run made is removed");
    }

    @Test
    void shouldRefuseAHeldOutCountWithFixedEntriesOrBelowOne(@TempDir final Path dir) {
        final Path results = dir.resolve("results");
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("fidelity", "--device", dir.resolve("l2.bin").toString(),
            "--results", results.toString(), "--held-out", "2", "--only", "contiguous", "--no-fio"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("fidelity", "--device", dir.resolve("l2.bin").toString(),
            "--results", results.toString(), "--held-out", "-1", "--no-fio"));
        assertFalse(Files.exists(dir.resolve("l2.bin")), "refused before anything is written");
    }

    /** The result folders under {@code results/fidelity}, in name order. */
    private static List<Path> folders(final Path results) throws IOException {
        try (Stream<Path> s = Files.list(results.resolve("fidelity"))) {
            return s.sorted().toList();
        }
    }
}
