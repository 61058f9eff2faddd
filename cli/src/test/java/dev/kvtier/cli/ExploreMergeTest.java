package dev.kvtier.cli;

import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.explore.MergeReport;
import dev.kvtier.lab.explore.ShardSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code explore --summary} and {@code explore merge}: sharded runs merge into what one unsharded run finds. */
class ExploreMergeTest {
    private static final int SEEDS = 40;

    @TempDir
    Path dir;

    @Test
    void shouldMergeFourShardsIntoWhatOneUnshardedRunFinds() throws IOException {
        final Path flaky = scenario("flaky", ExploreScenarios.FLAKY);
        for (int i = 0; i < 4; i++) {
            assertEquals(ExitCodes.INVARIANT, explore(flaky, "--shard", i + "/4", "--keep-going", "--summary",
                dir.resolve("shards") + "/", "--journals", dir.resolve("j" + i).toString()).exitCode());
        }
        final Path whole = dir.resolve("whole.json");
        assertEquals(ExitCodes.INVARIANT, explore(flaky, "--keep-going", "--summary", whole.toString(),
            "--journals", dir.resolve("jw").toString()).exitCode());

        final MergeReport sharded = merge(ExitCodes.INVARIANT, dir.resolve("shards").toString());
        final MergeReport single = merge(ExitCodes.INVARIANT, whole.toString());
        assertEquals(4, sharded.shards().size());
        assertEquals(SEEDS, sharded.seedsRun());
        assertEquals(single.seedsRun(), sharded.seedsRun());
        assertEquals(single.failingSeeds(), sharded.failingSeeds());
        assertTrue(sharded.failingSeeds() > 0 && sharded.failingSeeds() < SEEDS, "the swarm fails about half");
        assertEquals(signatures(single), signatures(sharded));
        assertEquals(single.probes(), sharded.probes());
        assertTrue(sharded.missing().isEmpty() && sharded.notRun().isEmpty(), sharded.missing().toString());
        final MergeReport.FailureGroup g = sharded.failures().getFirst();
        assertEquals("16 LIVENESS", g.invariant());
        assertEquals("RequestFinished", g.event(), "the event the liveness check broke at");
        assertTrue(g.first().swarm().contains("sim.livenessBoundSeconds=1"), g.first().swarm().toString());
        assertEquals(ExitCodes.INVARIANT, Main.execute(ExploreCommandTest.args(g.first().reproduce())));
        assertNotNull(g.first().journal(), "the first failure of a kind has a journal");
        assertEquals(ExitCodes.OK, Main.execute("replay", g.first().journal()));
    }

    @Test
    void shouldRecordWhereAShardStoppedAndReportItsUnrunSeeds() throws IOException {
        final Path flaky = scenario("flaky", ExploreScenarios.FLAKY);
        final Path file = dir.resolve("stopped.json");
        assertEquals(ExitCodes.INVARIANT, explore(flaky, "--summary", file.toString(), "--journals",
            dir.resolve("j").toString()).exitCode());
        final ShardSummary s = ShardSummary.read(file);
        assertNotNull(s.stoppedAt());
        assertEquals(1, s.failures().size());
        assertEquals(s.stoppedAt(), s.failures().getFirst().seed());
        assertEquals(s.stoppedAt() - 1 + 1, s.seedsRun(), "seeds 1.. the failing one ran");
        assertTrue(s.seedsRun() < SEEDS);
        final CliRun merged = CliRun.of("explore", "merge", file.toString());
        assertEquals(ExitCodes.INVARIANT, merged.exitCode());
        assertTrue(merged.out().contains("stopped at seed " + s.stoppedAt() + ": " + (SEEDS - s.seedsRun())
            + " later seeds not run"), merged.out());
    }

    @Test
    void shouldReportMissingShardsAndExit2UnlessAllowed() throws IOException {
        final Path steady = scenario("steady", ExploreScenarios.STEADY);
        final Path a = dir.resolve("a.json");
        assertEquals(ExitCodes.OK, explore(steady, "--shard", "0/3", "--summary", a.toString()).exitCode());
        final CliRun merged = CliRun.of("explore", "merge", a.toString());
        assertEquals(ExitCodes.BAD_INPUT, merged.exitCode(), merged.out());
        assertTrue(merged.out().contains("missing: shard 1/3 of seeds 1..40 (13 seeds)"), merged.out());
        assertTrue(merged.out().contains("missing: shard 2/3 of seeds 1..40 (13 seeds)"), merged.out());
        assertEquals(ExitCodes.OK, CliRun.of("explore", "merge", a.toString(), "--allow-missing").exitCode());
    }

    @Test
    void shouldRefuseOverlappingShards() throws IOException {
        final Path steady = scenario("steady", ExploreScenarios.STEADY);
        final Path quarter = dir.resolve("q.json");
        final Path half = dir.resolve("h.json");
        final Path later = dir.resolve("later.json");
        explore(steady, "--shard", "2/4", "--summary", quarter.toString());
        explore(steady, "--shard", "0/2", "--summary", half.toString());
        // Shards 2/4 and 0/2 of one range share seeds 3, 7, ... (offsets 2, 6, ... are even).
        final CliRun shared = CliRun.of("explore", "merge", quarter.toString(), half.toString());
        assertEquals(ExitCodes.BAD_INPUT, shared.exitCode(), shared.out());
        assertTrue(shared.err().contains("overlap: both plan seed 3"), shared.err());
        assertEquals(1, shared.err().lines().count(), shared.err());
        final CliRun twice = CliRun.of("explore", "merge", quarter.toString(), quarter.toString());
        assertEquals(ExitCodes.BAD_INPUT, twice.exitCode());
        assertTrue(twice.err().contains("overlap: both plan seed 3"), twice.err());
        assertEquals(ExitCodes.OK, explore(steady, "--from", "41", "--summary", later.toString()).exitCode());
        final CliRun disjoint = CliRun.of("explore", "merge", "--allow-missing", quarter.toString(),
            later.toString());
        assertEquals(ExitCodes.OK, disjoint.exitCode(), disjoint.err());
    }

    @Test
    void shouldRefuseShardsOfAnotherScenarioOrOverridesOrCode() throws IOException {
        final Path steady = scenario("steady", ExploreScenarios.STEADY);
        final Path a = dir.resolve("a.json");
        final Path b = dir.resolve("b.json");
        final Path c = dir.resolve("c.json");
        explore(steady, "--shard", "0/2", "--summary", a.toString());
        explore(steady, "--shard", "1/2", "--set", "core.l1Fraction=0.25", "--summary", b.toString());
        final CliRun sets = CliRun.of("explore", "merge", a.toString(), b.toString());
        assertEquals(ExitCodes.BAD_INPUT, sets.exitCode());
        assertTrue(sets.err().contains("not one exploration"), sets.err());

        explore(steady, "--shard", "1/2", "--summary", c.toString());
        assertEquals(ExitCodes.OK, CliRun.of("explore", "merge", a.toString(), c.toString()).exitCode());
        final JsonNode tree = ReportJson.mapper().readTree(Files.readString(c));
        ((tools.jackson.databind.node.ObjectNode) tree).put("code", "0".repeat(40));
        Files.writeString(c, ReportJson.toJson(tree));
        final CliRun code = CliRun.of("explore", "merge", a.toString(), c.toString());
        assertEquals(ExitCodes.BAD_INPUT, code.exitCode());
        assertTrue(code.err().contains("from " + "0".repeat(40) + ": not one exploration"), code.err());
    }

    @Test
    void shouldExit4WhenNoShardReachedARequiredProbe() throws IOException {
        final Path steady = scenario("steady", ExploreScenarios.STEADY);
        final Path a = dir.resolve("a.json");
        explore(steady, "--summary", a.toString());
        final CliRun reached = CliRun.of("explore", "merge", a.toString(), "--require", "seal.end-of-store");
        assertEquals(ExitCodes.OK, reached.exitCode(), reached.out());
        final CliRun unreached = CliRun.of("explore", "merge", a.toString(), "--require", "seal.end-of-store",
            "--require", "checksum.mismatch");
        assertEquals(ExitCodes.GATE, unreached.exitCode(), unreached.out());
        assertTrue(unreached.out().contains("- checksum.mismatch: **reached by no shard**"), unreached.out());
        final CliRun unknown = CliRun.of("explore", "merge", a.toString(), "--require", "NoSuchProbe");
        assertEquals(ExitCodes.BAD_INPUT, unknown.exitCode());
        assertTrue(unknown.err().contains("--require NoSuchProbe: no summary has a probe of that name"),
            unknown.err());
    }

    @Test
    void shouldExit4WhenTheScenarioRequiresAProbeNoSeedReachedWholeOrMerged() throws IOException {
        final String steady = ExploreScenarios.STEADY.replace("name = \"steady\"", "name = \"needs\"");
        final Path needs = scenario("needs", steady
            + "[coverage]\nrequired = [\"seal.end-of-store\", \"checksum.mismatch\"]\n");
        final CliRun whole = explore(needs, "--seeds", "3");
        assertEquals(ExitCodes.GATE, whole.exitCode(), whole.out() + whole.err());
        assertTrue(whole.out().contains("required (2): reached by no seed: checksum.mismatch"), whole.out());
        final Path a = dir.resolve("a.json");
        final Path b = dir.resolve("b.json");
        final CliRun shard = explore(needs, "--seeds", "4", "--shard", "0/2", "--summary", a.toString());
        assertEquals(ExitCodes.OK, shard.exitCode(), "a shard leaves the requirement to the merge: " + shard.out());
        explore(needs, "--seeds", "4", "--shard", "1/2", "--summary", b.toString());
        assertEquals(List.of("seal.end-of-store", "checksum.mismatch"), ShardSummary.read(a).required());
        final CliRun merged = CliRun.of("explore", "merge", a.toString(), b.toString());
        assertEquals(ExitCodes.GATE, merged.exitCode(), merged.out());
        assertTrue(merged.out().contains("- checksum.mismatch: **reached by no shard**"), merged.out());
        final Path met = scenario("met", steady.replace("name = \"needs\"", "name = \"met\"")
            + "[coverage]\nrequired = [\"seal.end-of-store\"]\n");
        final CliRun ok = explore(met, "--seeds", "3");
        assertEquals(ExitCodes.OK, ok.exitCode(), ok.out());
        assertTrue(ok.out().contains("required (1): all reached"), ok.out());
        assertTrue(ok.out().contains("seal.end-of-store"), ok.out());
        final Path later = scenario("later", steady.replace("name = \"needs\"", "name = \"later\"")
            + "[coverage]\nminSeeds = 100\nrequired = [\"checksum.mismatch\"]\n");
        final CliRun few = explore(later, "--seeds", "3");
        assertEquals(ExitCodes.OK, few.exitCode(), "required from 100 seeds, 3 ran: " + few.out());
        assertTrue(few.out().contains("not checked: [coverage] minSeeds is 100"), few.out());
    }

    @Test
    void shouldRefuseAFileThatIsNotASummaryInOneLine() throws IOException {
        final Path bogus = dir.resolve("bogus.json");
        Files.writeString(bogus, "{\"format\": 1, \"scenario\": \"x\"}");
        final CliRun r = CliRun.of("explore", "merge", bogus.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
        assertTrue(r.err().startsWith("kvtier: explore merge: " + bogus + " is not a shard summary"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals(ExitCodes.BAD_INPUT, CliRun.of("explore", "merge", dir.resolve("absent.json").toString())
            .exitCode());
    }

    @Test
    void shouldWriteEveryCatalogueProbeAndTheBuildCommit() throws IOException {
        final Path steady = scenario("steady", ExploreScenarios.STEADY);
        final Path a = dir.resolve("a.json");
        explore(steady, "--seeds", "3", "--summary", a.toString());
        final ShardSummary s = ShardSummary.read(a);
        assertEquals(3, s.seedsRun());
        assertNull(s.stoppedAt());
        assertEquals(BuildInfo.commit(), s.code());
        assertEquals(new dev.kvtier.lab.explore.ProbeReach(3, 1L), s.probes().get("seal.end-of-store"));
        assertEquals(dev.kvtier.lab.explore.ProbeReach.NONE, s.probes().get("checksum.mismatch"));
        assertEquals(dev.kvtier.harness.probe.ProbeCatalogue.all().size(), s.probes().size(),
            s.probes().keySet().toString());
        assertEquals(List.of(), s.required());
    }

    private Path scenario(final String name, final String text) throws IOException {
        final Path file = dir.resolve(name + ".toml");
        Files.writeString(file, text);
        return file;
    }

    /** {@code kvtier explore SCENARIO --seeds 40 ARGS...} ({@code --seeds} in ARGS wins). */
    private static CliRun explore(final Path scenario, final String... args) {
        final List<String> all = new ArrayList<>(List.of("explore", scenario.toString()));
        all.addAll(List.of(args));
        if (!all.contains("--seeds")) {
            all.addAll(List.of("--seeds", Integer.toString(SEEDS)));
        }
        return CliRun.of(all.toArray(String[]::new));
    }

    private MergeReport merge(final int exitCode, final String input) throws IOException {
        final Path json = dir.resolve("merged-" + Path.of(input).getFileName() + ".json");
        final CliRun r = CliRun.of("explore", "merge", input, "--json", json.toString());
        assertEquals(exitCode, r.exitCode(), r.out() + r.err());
        assertFalse(r.out().isBlank());
        return ReportJson.mapper().readValue(Files.readString(json), MergeReport.class);
    }

    /** Each failure group as its signature and seeds. */
    private static List<String> signatures(final MergeReport r) {
        return r.failures().stream().map(g -> g.signature() + " " + g.seeds()).toList();
    }
}
