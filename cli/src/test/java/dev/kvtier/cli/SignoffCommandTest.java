package dev.kvtier.cli;

import dev.kvtier.lab.gate.Gate;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultsIndex;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.lab.signoff.Results;
import dev.kvtier.lab.signoff.SignoffReport;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SignoffCommandTest {
    private static final String SMALL = TinyScenario.text("signoff-small", "");
    private static final String WIDE_BANDS = """
        phaseBand = 100
        ttftMeanBand = 100
        ttftP99Band = 100
        bandwidthBand = 100
        """;

    @Test
    void shouldWriteAResultFolderAndCompareWithTheEarlierOne(@TempDir final Path tmp) throws IOException {
        final Path dir = tmp.resolve("signoff-test");
        Files.createDirectories(dir);
        final Path scenario = dir.resolve("signoff-small.toml");
        // Bands wide enough for any disk: this test is about the files and the comparison, not fidelity.
        Files.writeString(scenario, SMALL + "[signoff]\nmaxDrop = 0.5\n" + WIDE_BANDS);
        final Path results = tmp.resolve("results");
        final String[] args = {"signoff", scenario.toString(), "--device", dir.resolve("l2.bin").toString(),
            "--results", results.toString(), "--quick-calibration", "--no-fio", "--repeat", "2", "--why",
            "a first look"};
        assertEquals(ExitCodes.OK, Main.execute(args));
        final List<Path> first = folders(results);
        assertEquals(1, first.size(), first.toString());
        final Path folder = first.getFirst();
        assertTrue(folder.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-\\d{4}-signoff-small-"
            + Pattern.quote(host())), folder.toString());
        assertTheFirstResult(folder);
        // The first result made much faster: the next sign-off compares with it (not with an older one) and fails on
        // the drop; it supersedes it, and the root's generated index is rewritten with it as the current result.
        Files.writeString(folder.resolve("signoff.json"), "{\"storeBytesPerSec\": 1.0E15}\n");
        final Path older = Files.createDirectories(results.resolve("signoffs").resolve("2000-01-01-0000-signoff-small-"
            + host()));
        new ResultInfo("signoff", "signoff-small", host(), "2000-01-01T00:00:00Z", "PASS", Map.of(), null, null, null)
            .write(older);
        Files.writeString(older.resolve("signoff.json"), "{\"storeBytesPerSec\": 1.0}\n");
        ResultsIndex.write(results);
        assertEquals(ExitCodes.GATE, Main.execute(args));
        final List<Path> all = folders(results);
        assertEquals(3, all.size(), all.toString());
        final Path second = all.getLast();
        final JsonNode again = ReportJson.mapper().readTree(Files.readString(second.resolve("signoff.json")));
        assertFalse(again.get("pass").booleanValue());
        assertEquals(folder.getFileName().toString(), again.get("previous").get("result").stringValue());
        assertEquals(folder.getFileName().toString(), ResultInfo.read(second).supersedes());
        assertTrue(Files.readString(second.resolve("signoff.md")).contains("Previous result [" + folder.getFileName()
            + "](../" + folder.getFileName() + "/signoff.md)"), "a link to the previous result's report");
        assertTrue(Files.readString(results.resolve("README.md")).contains("Current: **[" + second.getFileName()
            + "](signoffs/" + second.getFileName() + "/signoff.md)**, FAIL"), "the index names the new result");
        assertEquals(List.of(), ResultsIndex.check(results));
    }

    /** The first sign-off's report, files and metadata. */
    private static void assertTheFirstResult(final Path folder) throws IOException {
        final JsonNode r = ReportJson.mapper().readTree(Files.readString(folder.resolve("signoff.json")));
        assertTrue(r.get("pass").booleanValue());
        assertEquals("real", r.get("real").get("mode").stringValue());
        assertEquals("virtual", r.get("sim").get("mode").stringValue());
        assertEquals(2, r.get("phases").size());
        assertTrue(r.get("phases").get(0).get("fidelity").doubleValue() > 0);
        assertEquals(2, r.get("repeats").intValue());
        final JsonNode figures = r.get("figures");
        assertEquals(List.of("phase cold time", "phase warm time", "TTFT cold mean", "TTFT cold p99", "TTFT warm mean",
            "TTFT warm p99", "store bandwidth", "load bandwidth"), names(figures));
        for (final JsonNode f : figures) {
            assertEquals(2, f.get("real").size(), f.toString());
            assertEquals(2, f.get("sim").size(), f.toString());
            assertTrue(f.get("real").get(0).doubleValue() > 0, f.toString());
        }
        assertTrue(r.get("calibration").get(0).stringValue().startsWith("preconditioned: all 64 MiB written"),
            r.get("calibration").toString());
        assertTrue(r.get("previous").isNull(), "the first result has nothing to compare with");
        for (final String f : List.of("signoff.md", "throughput.png", "latency.png", "fidelity.png", "device.toml",
            "host.toml", "result.json")) {
            assertTrue(Files.size(folder.resolve(f)) > 0, f);
        }
        final ResultInfo info = ResultInfo.read(folder);
        assertEquals(List.of("signoff", "signoff-small", host(), "PASS", "a first look"), List.of(info.kind(),
            info.scenario(), info.host(), info.verdict(), info.why()));
        assertNull(info.supersedes());
        assertEquals(List.of("store bandwidth real / simulated", "phase cold time", "phase warm time",
            "TTFT cold mean", "TTFT warm mean"), List.copyOf(info.headline().keySet()));
        // The host profile's byte work bandwidths come from a real run of the calibration workload, which says so.
        final String hostToml = Files.readString(folder.resolve("host.toml"));
        assertTrue(hostToml.contains("# byte work bandwidths from a real run of pr90-evict-small model.layers=4"),
            hostToml);
        assertTrue(Files.readString(folder.resolve("signoff.md")).contains("Host byte work on the real runs' loop"
            + " thread"), "the report sets the real runs' byte work against the profile");
        assertTrue(r.get("disk").get("writeBytes").longValue() > 0 && r.get("disk").get("busyNanos").longValue() > 0,
            "the disk's own figures: " + r.get("disk"));
        assertTrue(Files.readString(folder.resolve("signoff.md")).contains("prefill time sets it, not the disk. The "
            + "disk itself (first repetition): busy "), "the report sets the workload's rate apart from the disk's");
        assertTrue(r.get("hostWork").size() >= 4, "copies, checksums, fills, checks: " + r.get("hostWork"));
    }

    /** The result folders under {@code results/signoffs}, in name order (a folder's name starts with its time). */
    private static List<Path> folders(final Path results) throws IOException {
        try (Stream<Path> s = Files.list(results.resolve("signoffs"))) {
            return s.sorted().toList();
        }
    }

    @Test
    void shouldFailOnAThresholdAnInvariantOrASuspectProfileOnly() throws Exception {
        final Scenario sc = ScenarioLoader.load("pr90-evict-small", List.of());
        final List<RunReport> ok = List.of(new SimRun(sc.spec(), sc.sim(), 1, List.of()).run());
        final Scenario.Signoff t = new Scenario.Signoff(2_000_000_000L, 0.25);
        final List<Fidelity.Figure> exact = Fidelity.figures(ok, ok, t);
        assertTrue(Results.reasons(ok, ok, 3e9, null, t, exact, List.of()).isEmpty());
        assertEquals(1, Results.reasons(ok, ok, 1e9, null, t, exact, List.of()).size(), "below the minimum");
        assertEquals(1, Results.reasons(ok, ok, 3e9, new SignoffReport.Previous("f", 5e9, -0.4), t, exact,
            List.of()).size());
        assertTrue(Results.reasons(ok, ok, 3e9, new SignoffReport.Previous("f", 3.5e9, -0.14), t, exact, List.of())
            .isEmpty());
        assertEquals(List.of("the calibrated device profile is suspect: read too fast"),
            Results.reasons(ok, ok, 3e9, null, t, exact, List.of("read too fast")));
    }

    @Test
    void shouldJudgeEveryFigureAgainstItsBandAndSayWhichAndByHowMuch() throws Exception {
        final Scenario sc = ScenarioLoader.load("pr90-evict-small", List.of());
        final Scenario wrong = ScenarioLoader.load("pr90-evict-small", List.of("sim.device=datacenter-nvme"));
        final List<RunReport> real = List.of(run(sc, 1), run(sc, 2), run(sc, 3));
        final List<RunReport> sim = List.of(run(wrong, 1), run(wrong, 2), run(wrong, 3));
        final List<Fidelity.Figure> same = Fidelity.figures(real, real, sc.signoff());
        assertTrue(same.stream().allMatch(f -> f.inBand() && f.deviation() == 0), same.toString());
        final List<Fidelity.Figure> off = Fidelity.figures(real, sim, sc.signoff());
        final List<String> out = Fidelity.outside(off);
        assertFalse(out.isEmpty());
        final Fidelity.Figure cold = off.getFirst();
        assertEquals("phase cold time", cold.name());
        assertFalse(cold.inBand(), cold.describe());
        assertTrue(out.contains("fidelity: " + cold.describe()), out.toString());
        assertTrue(cold.describe().matches("phase cold time: simulated [0-9.]+ s, real [0-9.]+ s \\(-[0-9]+ %, band "
            + "\\+-15 %\\)"), cold.describe());
        final Scenario.Signoff loose = new Scenario.Signoff(0, 0.25, 10, 10, 10, 10);
        assertTrue(Fidelity.outside(Fidelity.figures(real, sim, loose)).isEmpty(), "every figure inside +-1000 %");
    }

    /** The simulator on a deliberately wrong device profile (about 100 times too slow) fails the sign-off: exit 4. */
    @Test
    void shouldFailTheSignoffOnADeliberatelyWrongProfile(@TempDir final Path tmp) throws IOException {
        final Path dir = tmp.resolve("signoff-test");
        Files.createDirectories(dir);
        final Path scenario = dir.resolve("signoff-wrong.toml");
        Files.writeString(scenario, TinyScenario.text("signoff-wrong", ""));
        final Path wrong = tmp.resolve("wrong-device.toml");
        Files.writeString(wrong, TinyScenario.WRONG_PROFILE);
        final Path host = tmp.resolve("host.toml");
        Files.writeString(host, HostCalibration.toml(HostCostProfile.JAVA_CORE));
        final Path results = tmp.resolve("results");
        assertEquals(ExitCodes.GATE, Main.execute("signoff", scenario.toString(), "--device",
            dir.resolve("l2-wrong.bin").toString(), "--results", results.toString(), "--profile", wrong.toString(),
            "--host-profile", host.toString(), "--no-fio", "--repeat", "1"));
        final Path json = folders(results).getFirst().resolve("signoff.json");
        final JsonNode r = ReportJson.mapper().readTree(Files.readString(json));
        assertFalse(r.get("pass").booleanValue());
        final String reasons = r.get("reasons").toString();
        assertTrue(reasons.contains("fidelity: phase cold time: simulated "), reasons);
        assertTrue(reasons.contains("band +-15 %"), reasons);
        assertTrue(Files.readString(json.resolveSibling("signoff.md")).contains("**OUT**"));
        assertEquals("FAIL", ResultInfo.read(json.getParent()).verdict());
    }

    private static RunReport run(final Scenario sc, final long seed) {
        return new SimRun(sc.spec(), sc.sim(), seed, List.of()).run();
    }

    private static List<String> names(final JsonNode figures) {
        final List<String> out = new java.util.ArrayList<>();
        for (final JsonNode f : figures) {
            out.add(f.get("name").stringValue());
        }
        return out;
    }

    @Test
    void shouldPassTheBundledPerSlotGate() {
        assertEquals(ExitCodes.OK, Main.execute("gate", "pr90-evict-per-slot"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("gate", "pr90-evict"), "no [gate] table");
    }

    @Test
    void shouldApplyTheGateBounds() {
        final Scenario.Gate canary = new Scenario.Gate("base", "coldPhaseNanos", 0.2, 0);
        assertTrue(Gate.verdict(canary, 100, 131, "b", "c").holds());
        assertFalse(Gate.verdict(canary, 100, 110, "b", "c").holds(), "a 10 % slowdown is not flagged");
        final Scenario.Gate limit = new Scenario.Gate("base", "coldPhaseNanos", 0, 0.05);
        assertTrue(Gate.verdict(limit, 100, 104, "b", "c").holds());
        assertFalse(Gate.verdict(limit, 100, 106, "b", "c").holds());
    }

    private static String host() throws IOException {
        return java.net.InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
    }
}
