package dev.kvtier.cli;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.run.SeedPlan;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class RunCommandTest {

    @Test
    void shouldRunTheSmallScenarioAndWriteTheReport(@TempDir final Path dir) throws IOException {
        final Path report = dir.resolve("r.json");
        final Path requests = dir.resolve("r.csv");
        assertEquals(ExitCodes.OK, Main.execute("run", "pr90-evict-small", "--seed", "3", "--report",
            report.toString(), "--requests", requests.toString()));
        final List<String> lines = Files.readAllLines(requests);
        assertEquals(33, lines.size(), "a header and 32 requests");
        assertTrue(lines.getFirst().startsWith("requestId,phase,arrivalNs,ttftNs,input,fromL1,fromL2,prefilled,"),
            lines.getFirst());
        final JsonNode r = ReportJson.mapper().readTree(Files.readString(report));
        for (final String field : new String[] {"scenario", "mode", "seed", "events", "elapsedNanos", "eventDigest",
            "invariantViolations"}) {
            assertTrue(r.has(field), field);
        }
        final JsonNode m = r.get("metrics");
        for (final String field : new String[] {"storedBytes", "loadedBytes", "l1HitRatio", "l2Reads", "l2Writes",
            "writeOps", "meanWriteBytes", "coldPhaseNanos", "warmPhaseNanos", "storeAckNanos", "loadNanos"}) {
            assertTrue(m.has(field), field);
        }
        for (final String p : new String[] {"p50", "p99", "max"}) {
            assertTrue(m.get("storeAckNanos").has(p) && m.get("loadNanos").has(p), p);
        }
        assertEquals("virtual", r.get("mode").stringValue());
        assertEquals(3, r.get("seed").longValue());
        assertEquals(0, r.get("invariantViolations").intValue());
        assertEquals(32, r.get("eventDigest").stringValue().length());
        assertTrue(m.get("coldPhaseNanos").longValue() > 0 && m.get("warmPhaseNanos").longValue() > 0);
        final JsonNode tokens = m.get("tokenSources");
        assertEquals(32 * 2048, tokens.get("input").longValue());
        assertEquals(16 * 2048, tokens.get("prefilledBy").get("firstSight").longValue());
        assertEquals(tokens.get("prefilled").longValue(), tokens.get("prefilledBy").get("firstSight").longValue()
            + tokens.get("prefilledBy").get("alwaysComputed").longValue());
    }

    @Test
    void shouldRefuseARequestsFileThatIsAlsoTheReport(@TempDir final Path dir) {
        final String same = dir.resolve("r.json").toString();
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", "pr90-evict-small", "--report", same, "--requests",
            same));
    }

    @Test
    void shouldExitTwoOnABadScenario(@TempDir final Path dir) throws IOException {
        final Path bad = dir.resolve("bad.toml");
        Files.writeString(bad, "[scenario]\nname = 3\n");
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", bad.toString()));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", "no-such-scenario"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", "pr90-evict-small", "--set", "core.nope=1"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", "pr90-evict-small", "--seed", "abc"));
    }

    @Test
    void shouldExitOneWhenAnInvariantFails() {
        // Prefill of 2048 tokens at 1 ms a token takes 2 s: past a 1 s liveness bound (invariant 16).
        assertEquals(ExitCodes.INVARIANT, Main.execute("run", "pr90-evict-small", "--set",
            "engine.prefillNsPerToken=1000000", "--set", "sim.livenessBoundSeconds=1"));
    }

    /** A failed run's journal says which invariant failed, and its replay prints it (issue 35). */
    @Test
    void shouldMarkAFailedRunsJournalAndSayItOnReplay(@TempDir final Path dir) {
        final Path journal = dir.resolve("j");
        final CliRun failed = CliRun.of("run", "pr90-evict-small", "--set", "engine.prefillNsPerToken=1000000",
            "--set", "sim.livenessBoundSeconds=1", "--journal", journal.toString());
        assertEquals(ExitCodes.INVARIANT, failed.exitCode(), failed.err());
        final CliRun replay = CliRun.of("replay", journal.toString());
        assertTrue(replay.out().contains("the recorded run failed: invariant 16"), replay.out());
        assertTrue(replay.out().contains("identical"), replay.out());
        final java.util.regex.Matcher at = java.util.regex.Pattern.compile("violated at event (\\d+) \\((\\w+)\\)")
            .matcher(failed.err());
        assertTrue(at.find(), failed.err());
        final long last = Long.parseLong(at.group(1)) - 1;
        final CliRun dump = CliRun.of("journal", "dump", journal.toString(), "--from", Long.toString(last));
        assertTrue(dump.out().strip().startsWith(last + " ") && dump.out().contains(" " + at.group(2) + " "),
            "the journal's last event is the one that broke the invariant: " + dump.out());
        assertTrue(replay.out().contains("journal dump " + journal + " --from " + last), replay.out());
    }

    /** The TTFT bound counts from arrival, queueing included, and the run says what both bounds mean (issue 35). */
    @Test
    void shouldFailARunPastItsTtftBoundAndSayWhatTheBoundsMean() {
        final CliRun free = CliRun.of("run", "pr90-evict-small");
        assertEquals(ExitCodes.OK, free.exitCode(), free.err());
        assertTrue(
            free.out().contains("bounds: each request ends within 3600 s of its lookup (sim.livenessBoundSeconds;"
                + " queueing before the lookup not counted); no TTFT bound (sim.ttftBoundMs)"),
            free.out());
        final CliRun bounded = CliRun.of("run", "pr90-evict-small", "--set", "sim.ttftBoundMs=100");
        assertEquals(ExitCodes.INVARIANT, bounded.exitCode(), bounded.err());
        assertTrue(bounded.out().contains("first token within 100 ms of arrival, queueing included"), bounded.out());
        assertTrue(bounded.err().contains("gave its first token") && bounded.err().contains("TTFT bound 100000000 ns"),
            bounded.err());
    }

    @Test
    void shouldGiveTheSameDigestForTheSameSeed(@TempDir final Path dir) throws IOException {
        Main.execute("run", "pr90-evict-small", "--seed", "9", "--report", dir.resolve("a.json").toString());
        Main.execute("run", "pr90-evict-small", "--seed", "9", "--report", dir.resolve("b.json").toString());
        Main.execute("run", "pr90-evict-small", "--seed", "10", "--report", dir.resolve("c.json").toString());
        final String a = ReportJson.mapper().readTree(Files.readString(dir.resolve("a.json"))).get("eventDigest")
            .stringValue();
        final String b = ReportJson.mapper().readTree(Files.readString(dir.resolve("b.json"))).get("eventDigest")
            .stringValue();
        final String c = ReportJson.mapper().readTree(Files.readString(dir.resolve("c.json"))).get("eventDigest")
            .stringValue();
        assertEquals(a, b);
        assertTrue(!a.equals(c), "another seed, another run");
    }

    @Test
    void shouldRepeatTheRunInOneJvmWithTheSameDigest() {
        final CliRun once = CliRun.of("run", "pr90-evict-small", "--seed", "5");
        final CliRun run = CliRun.of("run", "pr90-evict-small", "--seed", "5", "--repeat", "3");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final String digest = once.out().lines().filter(l -> l.startsWith("digest ")).findFirst().orElseThrow();
        assertTrue(run.out().contains(digest + "\n"), "the first run's digest is the single run's");
        assertEquals(2, run.out().lines().filter(l -> l.matches("repeat [23] of 3: events .* outside GC\\)  digest "
            + "identical; allocated [0-9.]+ MB \\([0-9]+ bytes/event\\)")).count(), run.out());
        assertTrue(run.out().contains("digest identical in all 3"), run.out());
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", "pr90-evict-small", "--repeat", "0"));
    }

    @Test
    void shouldPrintTheBytesTheRunAllocated() {
        final CliRun run = CliRun.of("run", "pr90-evict-small", "--seed", "5");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final Matcher m = Pattern.compile("(?m)^allocated ([0-9.]+) MB \\(([0-9]+) bytes/event\\)$").matcher(run.out());
        assertTrue(m.find(), run.out());
        assertTrue(Double.parseDouble(m.group(1)) > 0, m.group());
        assertTrue(Long.parseLong(m.group(2)) > 0, m.group());
        final long events = Long.parseLong(run.out().lines().filter(l -> l.startsWith("events ")).findFirst()
            .orElseThrow().replaceAll("^events ([0-9,]+) .*", "$1").replace(",", ""));
        final double perEvent = Double.parseDouble(m.group(1)) * 1e6 / events;
        assertEquals(perEvent, Double.parseDouble(m.group(2)), 0.05e6 / events + 1,
            "bytes/event is the total over events");
    }

    /**
     * {@code run --seed N --swarm} runs what an exploration runs for seed N: the seed's swarm draws (printed) after the
     * user's overrides, the same digest as those draws given by hand, and not the plain scenario's.
     */
    @Test
    void shouldRunAnExploredSeedWithItsSwarmDraws(@TempDir final Path dir) throws Exception {
        final Path swarm = dir.resolve("swarm.json");
        final CliRun drawn = CliRun.of("run", "pr90-evict-small", "--seed", "5", "--swarm", "--report",
            swarm.toString());
        assertEquals(ExitCodes.OK, drawn.exitCode(), drawn.err());
        final SeedPlan plan = SeedPlan.draw(5, ScenarioLoader.load("pr90-evict-small", List.of()).swarm(), List.of());
        assertTrue(drawn.out().contains("swarm draws of seed 5: " + String.join(" ", plan.draws())), drawn.out());
        final List<String> byHand = new ArrayList<>(List.of("run", "pr90-evict-small", "--seed", "5", "--report",
            dir.resolve("hand.json").toString()));
        for (final String d : plan.draws()) {
            byHand.addAll(List.of("--set", d));
        }
        assertEquals(ExitCodes.OK, Main.execute(byHand.toArray(String[]::new)));
        assertEquals(ExitCodes.OK, Main.execute("run", "pr90-evict-small", "--seed", "5", "--report",
            dir.resolve("plain.json").toString()));
        final String d = digest(swarm);
        assertEquals(digest(dir.resolve("hand.json")), d, "--swarm runs the seed's draws");
        assertTrue(!d.equals(digest(dir.resolve("plain.json"))), "the draws change the run");
    }

    @Test
    void shouldRefuseSwarmOnAScenarioWithoutASwarmTable(@TempDir final Path dir) throws IOException {
        final Path toml = dir.resolve("tiny.toml");
        Files.writeString(toml, TinyScenario.text("tiny", ""));
        final CliRun r = CliRun.of("run", toml.toString(), "--swarm");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
        assertTrue(r.err().contains("has no [swarm] table"), r.err());
    }

    private static String digest(final Path report) throws IOException {
        return ReportJson.mapper().readTree(Files.readString(report)).get("eventDigest").stringValue();
    }
}
