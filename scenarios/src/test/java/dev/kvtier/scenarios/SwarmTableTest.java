package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every value of every {@code [swarm]} list is checked when the scenario loads, as the scenario with that value drawn
 * (after the user's {@code --set}s, as {@link SwarmCheck} says): the loader's own message, naming the swarm's value.
 */
class SwarmTableTest {
    private static final String MINIMAL = MinimalScenario.TEXT + "[swarm]\n";

    private static String error(final String swarm, final String... sets) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", MINIMAL + swarm,
            List.of(sets), null)).getMessage();
    }

    @Test
    void shouldRefuseAValueOutOfItsKeysRangeNamingItsIndex() {
        assertEquals("t.toml: key 'swarm.\"core.concurrentIos\"[2]' must be in [1, 4096], got 0",
            error("\"core.concurrentIos\" = [1, 8, 0]\n"));
        assertEquals("t.toml: key 'swarm.\"core.l1Fraction\"[1]' must be a positive number of at most 1000, got "
            + "7000.0", error("\"core.l1Fraction\" = [0.5, 7000.0]\n"));
        assertEquals("t.toml: key 'swarm.\"core.replacement\"[1]' must be \"lru\" or \"prefix-lru\"",
            error("\"core.replacement\" = [\"lru\", \"lfu\"]\n"));
        assertEquals("t.toml: key 'swarm.\"faults.volatileWriteCache\"[0]' must be true or false, got \"yes\"",
            error("\"faults.volatileWriteCache\" = [\"yes\", true]\n"));
        assertEquals("t.toml: key 'swarm.\"core.l2Bytes\"[0]' must be a size: bytes, or a number with a unit (B, "
            + "KiB, MiB, GiB, TiB, kB, MB, GB, TB), got \"lots\"", error("\"core.l2Bytes\" = [\"lots\"]\n"));
    }

    @Test
    void shouldRefuseAKeyThatNamesNoKeyWithTheKeyItMeant() {
        final String m = error("\"core.l1Bytez\" = [65536]\n");
        assertTrue(m.startsWith("t.toml: key 'swarm.\"core.l1Bytez\"' is not a known key; did you mean "
            + "'core.l1Bytes'? (known: "), m);
        assertEquals("t.toml: key 'swarm.\"phase.3.requests\"[0]' = 2: t.toml has no phase 3",
            error("\"phase.3.requests\" = [2]\n"));
    }

    @Test
    void shouldSayWhichValueBreaksAnotherKey() {
        assertEquals("t.toml: key 'swarm.\"faults.crashPoints\"[1]' = 2: key 'faults.crashWithinEvents' must be "
            + "positive when crashPoints is set", error("\"faults.crashPoints\" = [0, 2]\n"));
        final String ring = error("\"core.l2Bytes\" = [\"10GiB\", \"1024TiB\"]\n");
        assertTrue(ring.startsWith("t.toml: key 'swarm.\"core.l2Bytes\"[1]' = ") && ring.contains("ring slots, whose "
            + "index needs"), "the index the ring needs: " + ring);
    }

    @Test
    void shouldCheckEachValueAfterTheUsersSetsForACommandThatDraws() throws ScenarioException {
        for (final SwarmCheck check : List.of(SwarmCheck.FILE, SwarmCheck.DRAWS)) {
            final Scenario s = ScenarioLoader.parse("t.toml", MINIMAL + "\"faults.crashPoints\" = [0, 2]\n",
                List.of("faults.crashWithinEvents=100"), null, check);
            assertEquals(List.of("0", "2"), s.swarm().get("faults.crashPoints"), "a --set makes it valid: " + check);
        }
        final String swarm = MINIMAL + "\"workload.prefixGroups\" = [1, 3]\n";
        final List<String> sets = List.of("workload.prompts=2");
        final String m = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", swarm, sets, null,
            SwarmCheck.DRAWS)).getMessage();
        assertEquals("t.toml: key 'swarm.\"workload.prefixGroups\"[1]' must be in [1, 2], got 3", m,
            "a --set narrows a value's range for every seed that draws it");
        assertEquals(2, ScenarioLoader.parse("t.toml", swarm, sets, null).spec().workload().prompts(),
            "a command that draws nothing is not refused over a value only the --set breaks");
        assertTrue(error("\"core.concurrentIos\" = [0]\n", "workload.prompts=2").contains("'swarm.\"core"
            + ".concurrentIos\"[0]' must be in [1, 4096]"), "a value bad either way is refused with any --set");
    }

    /** The library's swarms with --sets a run takes (a larger workload, a smaller staging pool): only explore cares. */
    @Test
    void shouldRunALibraryScenarioWithASetThatOnlyItsSwarmWouldTripOn() throws ScenarioException {
        final List<String> sets = List.of("core.stagingBatchBytes=2304KiB", "core.stagingPoolBytes=4608KiB");
        assertEquals(4608L << 10, ScenarioLoader.load("pr90-evict-small", sets).spec().core().stagingPoolBytes());
        final String m = assertThrows(ScenarioException.class, () -> ScenarioLoader.load("pr90-evict-small", sets,
            SwarmCheck.DRAWS)).getMessage();
        assertTrue(m.startsWith("library:pr90-evict-small: key 'swarm.\"core.stagingBatchBytes\"[0]' = 9437184: key "
            + "'core.stagingPoolBytes' must be in [9437184, "), m);
    }

    @Test
    void shouldCheckWhenLoadedButNotAgainForASeedsDraws(@TempDir final Path dir) throws IOException, ScenarioException {
        final Path file = Files.writeString(dir.resolve("s.toml"), MINIMAL + "\"core.concurrentIos\" = [4, 0]\n");
        final String m = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file.toString(),
            List.of())).getMessage();
        assertEquals(file + ": key 'swarm.\"core.concurrentIos\"[1]' must be in [1, 4096], got 0", m);
        assertEquals(4, ScenarioLoader.load(file.toString(), List.of("core.concurrentIos=4"), SwarmCheck.NONE).spec()
            .core().concurrentIos(), "a seed's draws are loaded without checking every value again");
    }

    @Test
    void shouldAcceptEveryLibrarySwarm() throws ScenarioException {
        for (final String name : ScenarioLoader.LIBRARY) {
            final Scenario s = ScenarioLoader.load(name, List.of());
            for (final var e : s.swarm().entrySet()) {
                for (final String v : e.getValue()) {
                    ScenarioLoader.load(name, List.of(e.getKey() + "=" + v), SwarmCheck.NONE);
                }
            }
        }
    }
}
