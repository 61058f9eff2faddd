package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.run.SeedPlan;
import dev.kvtier.lab.explore.SeedSet;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.lab.explore.SeedRun;
import dev.kvtier.lab.explore.ShardSummary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ExploreCommandTest {
    /** {@code --minutes}: the exploration stops at its time budget, with a partial summary of the seeds it ran. */
    @Test
    void shouldStopAtItsTimeBudgetWithAPartialSummary(@TempDir final Path dir) throws IOException {
        final CliRun r = CliRun.of("explore", "pr90-evict-small", "--seeds", "100000", "--minutes", "0.02",
            "--keep-going", "--summary", dir + "/");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertTrue(r.err().contains("stopped at its budget of 0.02 minutes after "), r.err());
        try (var files = Files.list(dir)) {
            final ShardSummary s = ShardSummary.read(files.findFirst().orElseThrow());
            assertTrue(s.interrupted() && s.seedsRun() > 0 && s.seedsRun() < 100_000, "seeds run " + s.seedsRun());
            assertEquals(s.seedsRun(), (long) s.stoppedAt(), "a prefix of the planned seeds");
        }
    }

    /** Every explored seed, passing or failing, is in the summary with its draws and digest; --swarm re-runs it. */
    @Test
    void shouldKeepEverySeedsDrawsAndDigestSoOneFlagRunsItAgain(@TempDir final Path dir) throws IOException {
        final Path summary = dir.resolve("s.json");
        final CliRun r = CliRun.of("explore", "pr90-evict-small", "--seeds", "3", "--from", "5", "--summary",
            summary.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        final ShardSummary s = ShardSummary.read(summary);
        assertEquals(List.of(5L, 6L, 7L), s.seeds().stream().map(SeedRun::seed).toList());
        for (final SeedRun seed : s.seeds()) {
            assertTrue(seed.ok() && !seed.draws().isEmpty(), seed.toString());
            final CliRun again = CliRun.of("run", "pr90-evict-small", "--seed", Long.toString(seed.seed()),
                "--swarm");
            assertTrue(again.out().contains("swarm draws of seed " + seed.seed() + ": " + String.join(" ",
                seed.draws())), again.out());
            assertTrue(again.out().contains("digest " + seed.digest()), "seed " + seed.seed() + " runs again: "
                + again.out());
        }
    }

    @Test
    void shouldRunEverySeedExactlyOnceOverAllShards() {
        for (final int n : new int[] {1, 2, 3, 7}) {
            final List<Long> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.addAll(Explorer.seeds(100, 50, new Shard(i, n)));
            }
            assertEquals(50, all.size(), "n=" + n);
            assertEquals(50, new HashSet<>(all).size(), "n=" + n);
            assertEquals(Set.copyOf(Explorer.seeds(100, 50, Shard.ALL)), Set.copyOf(all));
        }
    }

    @Test
    void shouldParseShards() {
        assertEquals(new Shard(2, 4), Shard.parse("2/4"));
        for (final String bad : new String[] {"4/4", "x/2", "1", "-1/2"}) {
            assertEquals(ExitCodes.BAD_INPUT, Main.execute("explore", "pr90-evict-small", "--seeds", "1",
                "--shard", bad), bad);
        }
    }

    @Test
    void shouldTakeTheShardFromTheEnvironment(@TempDir final Path dir) throws IOException {
        assertEquals(new Shard(2, 4), Shard.fromEnv(Map.of(Shard.INDEX_ENV, "2", Shard.COUNT_ENV, " 4 ")));
        final Map<Map<String, String>, String> bad = Map.of(
            Map.of(Shard.COUNT_ENV, "4"), "JOB_COMPLETION_INDEX is not set",
            Map.of(Shard.INDEX_ENV, "1"), "KVTIER_SHARDS is not set",
            Map.of(Shard.INDEX_ENV, "one", Shard.COUNT_ENV, "4"), "JOB_COMPLETION_INDEX must be a whole number",
            Map.of(Shard.INDEX_ENV, "-1", Shard.COUNT_ENV, "4"), "JOB_COMPLETION_INDEX must be a whole number",
            Map.of(Shard.INDEX_ENV, "4", Shard.COUNT_ENV, "4"), "need 0 <= index < count",
            Map.of(Shard.INDEX_ENV, "0", Shard.COUNT_ENV, "0"), "need 0 <= index < count");
        for (final Map.Entry<Map<String, String>, String> e : bad.entrySet()) {
            final IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> Shard.fromEnv(e.getKey()), e.getKey().toString());
            assertTrue(x.getMessage().startsWith("--shard-from-env: ") && x.getMessage().contains(e.getValue()),
                x.getMessage());
        }
        final Path scenario = dir.resolve("steady.toml");
        Files.writeString(scenario, ExploreScenarios.STEADY);
        final Path summary = dir.resolve("s.json");
        final ExploreCommand explore = new ExploreCommand();
        explore.environment = Map.of(Shard.INDEX_ENV, "1", Shard.COUNT_ENV, "3");
        assertEquals(ExitCodes.OK, new CommandLine(explore).execute(scenario.toString(), "--seeds", "7",
            "--shard-from-env", "--summary", summary.toString()));
        final ShardSummary s = ShardSummary.read(summary);
        assertEquals(new SeedSet(1, 7, new Shard(1, 3)), s.range());
        assertEquals(2, s.seedsRun(), "seeds 2 and 5");
        final ExploreCommand unset = new ExploreCommand();
        unset.environment = Map.of(Shard.COUNT_ENV, "3");
        assertEquals(ExitCodes.BAD_INPUT, new CommandLine(unset).execute(scenario.toString(), "--seeds", "7",
            "--shard-from-env"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("explore", scenario.toString(), "--seeds", "7",
            "--shard-from-env", "--shard", "0/2"));
    }

    @Test
    void shouldFindTheFirstSeedTwoShardsShareAsListingWould() {
        for (final long[] r : new long[][] {{1, 12}, {3, 7}, {1, 1}, {5, 30}}) {
            for (int n1 = 1; n1 <= 6; n1++) {
                for (int n2 = 1; n2 <= 6; n2++) {
                    for (int i1 = 0; i1 < n1; i1++) {
                        for (int i2 = 0; i2 < n2; i2++) {
                            final SeedSet a = new SeedSet(1, 12, new Shard(i1, n1));
                            final SeedSet b = new SeedSet(r[0], r[1], new Shard(i2, n2));
                            final Long listed = Explorer.seeds(1, 12, a.shard()).stream()
                                .filter(Explorer.seeds(r[0], r[1], b.shard())::contains).findFirst().orElse(null);
                            assertEquals(listed, a.firstShared(b), a + " and " + b);
                            assertEquals(Explorer.seeds(1, 12, a.shard()).size(), a.planned(), a.toString());
                        }
                    }
                }
            }
        }
        final SeedSet s = new SeedSet(10, 20, new Shard(3, 4));
        assertEquals(List.of(13L, 17L, 21L, 25L, 29L), Explorer.seeds(10, 20, s.shard()));
        assertEquals(0, s.plannedUpTo(12));
        assertEquals(2, s.plannedUpTo(17));
        assertEquals(5, s.plannedUpTo(100));
    }

    @Test
    void shouldDrawTheSameKnobsForASeedWhateverElseRan() {
        final TreeMap<String, List<String>> swarm = new TreeMap<>();
        swarm.put("core.a", List.of("1", "2", "3"));
        swarm.put("core.b", List.of("x", "y"));
        assertEquals(SeedPlan.draw(5, swarm, List.of()), SeedPlan.draw(5, swarm, List.of()));
        final Set<List<String>> seen = new HashSet<>();
        for (long s = 0; s < 40; s++) {
            seen.add(SeedPlan.draw(s, swarm, List.of()).sets());
        }
        assertEquals(6, seen.size(), "40 seeds cover all 6 combinations");
    }

    @Test
    void shouldStopAtTheFirstFailingSeedWithCommandsThatReproduceIt(@TempDir final Path dir) throws IOException {
        final Path scenario = dir.resolve("flaky.toml");
        Files.writeString(scenario, ExploreScenarios.FLAKY);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Explorer.Result r = new Explorer(scenario.toString(), List.of(), new PrintStream(out, true),
            new PrintStream(err, true)).explore(Explorer.seeds(1, 40, Shard.ALL), dir.resolve("journals"), false, 10);
        final String log = err.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCodes.INVARIANT, r.exitCode(), log);
        assertTrue(r.failure().contains("invariant 16"), r.failure());
        final SeedPlan plan = SeedPlan.draw(r.failingSeed(), ScenarioSwarm.of(scenario), List.of());
        assertTrue(plan.sets().contains("sim.livenessBoundSeconds=1"), plan.sets().toString());
        for (long s = 1; s < r.failingSeed(); s++) {
            assertTrue(SeedPlan.draw(s, ScenarioSwarm.of(scenario), List.of()).sets()
                .contains("sim.livenessBoundSeconds=3600"), "seed " + s + " passed, so it drew the long bound");
        }
        final String run = line(log, "reproduce: ");
        final String replay = line(log, "replay:    ");
        assertEquals(ExitCodes.INVARIANT, Main.execute(args(run)), run);
        assertEquals(ExitCodes.OK, Main.execute(args(replay)), replay);
    }

    private static String line(final String log, final String prefix) {
        return log.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(log))
            .substring(prefix.length());
    }

    /** "./kvtier run a --seed 3" as Main's arguments. */
    static String[] args(final String command) {
        final String[] words = command.trim().split(" +");
        assertEquals("./kvtier", words[0]);
        final String[] out = new String[words.length - 1];
        System.arraycopy(words, 1, out, 0, out.length);
        return out;
    }

    /** The swarm of a scenario file. */
    private static final class ScenarioSwarm {
        static SortedMap<String, List<String>> of(final Path file) {
            try {
                return new TreeMap<>(dev.kvtier.scenarios.ScenarioLoader.load(file.toString(), List.of()).swarm());
            } catch (final dev.kvtier.scenarios.ScenarioException e) {
                throw new AssertionError(e);
            }
        }
    }
}
