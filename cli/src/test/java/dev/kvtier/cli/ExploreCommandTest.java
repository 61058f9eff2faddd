package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.cli.explore.Explorer;
import dev.kvtier.cli.explore.SeedPlan;
import dev.kvtier.cli.explore.Shard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExploreCommandTest {
    /** A tiny workload whose swarm draws, per seed, a liveness bound that half the seeds cannot meet. */
    private static final String FLAKY = """
        [scenario]
        name = "flaky"
        [model]
        name = "tiny"
        kvHeads = 1
        headDim = 64
        layers = 16
        [workload]
        prompts = 4
        inputTokens = 128
        concurrency = 2
        prefillNsPerToken = 10000000
        [[phase]]
        name = "cold"
        requests = 4
        [core]
        l1Fraction = 0.5
        l2Fraction = 1.05
        stagingBatchBytes = 262144
        [swarm]
        "sim.livenessBoundSeconds" = [3600, 1]
        "core.coalesceStoreSpans" = [true, false]
        """;

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
        Files.writeString(scenario, FLAKY);
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
    private static String[] args(final String command) {
        final String[] words = command.trim().split(" +");
        assertEquals("./kvtier", words[0]);
        final String[] out = new String[words.length - 1];
        System.arraycopy(words, 1, out, 0, out.length);
        return out;
    }

    /** The swarm of a scenario file. */
    private static final class ScenarioSwarm {
        static TreeMap<String, List<String>> of(final Path file) {
            try {
                return new TreeMap<>(dev.kvtier.scenarios.ScenarioLoader.load(file.toString(), List.of()).swarm());
            } catch (final dev.kvtier.scenarios.ScenarioException e) {
                throw new AssertionError(e);
            }
        }
    }
}
