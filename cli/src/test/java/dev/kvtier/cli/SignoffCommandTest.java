package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.cli.signoff.Results;
import dev.kvtier.cli.signoff.SignoffReport;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SignoffCommandTest {
    private static final String SMALL = TinyScenario.text("signoff-small", "");

    @Test
    void shouldWriteResultsAndCompareWithTheEarlierOne(@TempDir final Path tmp) throws IOException {
        final Path dir = Path.of("target", "signoff-test");
        Files.createDirectories(dir);
        final Path scenario = dir.resolve("signoff-small.toml");
        Files.writeString(scenario, SMALL + "[signoff]\nmaxDrop = 0.5\n");
        final Path results = tmp.resolve("results");
        final String[] args = {"signoff", scenario.toString(), "--device", dir.resolve("l2.bin").toString(),
            "--results", results.toString(), "--quick-calibration", "--no-fio"};
        assertEquals(ExitCodes.OK, Main.execute(args));
        final Path json;
        final String suffix = "-signoff-small-" + host() + ".json";
        try (Stream<Path> s = Files.list(results)) {
            json = s.filter(p -> p.toString().endsWith(suffix)).findFirst().orElseThrow();
        }
        final JsonNode r = ReportJson.mapper().readTree(Files.readString(json));
        assertTrue(r.get("pass").booleanValue());
        assertEquals("real", r.get("real").get("mode").stringValue());
        assertEquals("virtual", r.get("sim").get("mode").stringValue());
        assertEquals(2, r.get("phases").size());
        assertTrue(r.get("phases").get(0).get("fidelity").doubleValue() > 0);
        assertTrue(r.get("previous").isNull(), "the first result has nothing to compare with");
        final String base = json.getFileName().toString().replace(".json", "");
        for (final String f : List.of(".md", "-throughput.png", "-latency.png", "-fidelity.png", "-device.toml",
            "-host.toml")) {
            assertTrue(Files.size(results.resolve(base + f)) > 0, f);
        }
        // An earlier, much faster result makes the next sign-off fail on the drop.
        final Path earlier = results.resolve("2000-01-01-signoff-small-" + host() + ".json");
        Files.writeString(earlier, "{\"storeBytesPerSec\": 1.0E15}\n");
        assertEquals(ExitCodes.GATE, Main.execute(args));
        final JsonNode again = ReportJson.mapper().readTree(Files.readString(json));
        assertFalse(again.get("pass").booleanValue());
        assertEquals("2000-01-01-signoff-small-" + host() + ".json", again.get("previous").get("file").stringValue());
    }

    @Test
    void shouldFindTheNewestEarlierResultOfTheSameScenarioAndHost(@TempDir final Path dir) throws IOException {
        Files.writeString(dir.resolve("2026-01-01-s-h.json"), "{\"storeBytesPerSec\": 100.0}");
        Files.writeString(dir.resolve("2026-02-01-s-h.json"), "{\"storeBytesPerSec\": 200.0}");
        Files.writeString(dir.resolve("2026-03-01-s-other.json"), "{\"storeBytesPerSec\": 999.0}");
        Files.writeString(dir.resolve("2026-04-01-s-h.json"), "{\"storeBytesPerSec\": 1.0}");
        final SignoffReport.Previous p = Results.previous(dir, "s", "h", "2026-04-01-s-h.json", 150);
        assertEquals("2026-02-01-s-h.json", p.file());
        assertEquals(-0.25, p.change(), 1e-9);
        assertNull(Results.previous(dir, "t", "h", "", 1));
    }

    @Test
    void shouldFailOnAThresholdOrAnInvariantOnly() throws Exception {
        final Scenario sc = ScenarioLoader.load("pr90-evict-small", List.of());
        final RunReport ok = new dev.kvtier.sim.run.SimRun(sc.spec(), sc.sim(), 1, List.of()).run();
        final Scenario.Signoff t = new Scenario.Signoff(2_000_000_000L, 0.25);
        assertTrue(Results.reasons(ok, ok, 3e9, null, t).isEmpty());
        assertEquals(1, Results.reasons(ok, ok, 1e9, null, t).size(), "below the minimum");
        assertEquals(1, Results.reasons(ok, ok, 3e9, new SignoffReport.Previous("f", 5e9, -0.4), t).size());
        assertTrue(Results.reasons(ok, ok, 3e9, new SignoffReport.Previous("f", 3.5e9, -0.14), t).isEmpty());
    }

    @Test
    void shouldPassTheBundledPerSlotGate() {
        assertEquals(ExitCodes.OK, Main.execute("gate", "pr90-evict-per-slot"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("gate", "pr90-evict"), "no [gate] table");
    }

    @Test
    void shouldApplyTheGateBounds() {
        final Scenario.Gate canary = new Scenario.Gate("base", "coldPhaseNanos", 0.2, 0);
        assertTrue(GateCommand.verdict(canary, 100, 131, "b", "c").holds());
        assertFalse(GateCommand.verdict(canary, 100, 110, "b", "c").holds(), "a 10 % slowdown is not flagged");
        final Scenario.Gate limit = new Scenario.Gate("base", "coldPhaseNanos", 0, 0.05);
        assertTrue(GateCommand.verdict(limit, 100, 104, "b", "c").holds());
        assertFalse(GateCommand.verdict(limit, 100, 106, "b", "c").holds());
    }

    private static String host() throws IOException {
        return java.net.InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
    }
}
