package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Did you mean" in the loader's one-line errors: mistyped keys, tables, library scenarios, files and presets. */
class DidYouMeanTest {
    private static final String MINIMAL = MinimalScenario.TEXT;
    private static final List<String> CORE = List.of("l2Bytes", "l2Fraction", "l1Bytes", "l1Fraction",
        "concurrentIos", "commitMode");

    private static String error(final String text, final String... sets) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", text, List.of(sets), null))
            .getMessage();
    }

    @Test
    void shouldMeasureEditsAndSwapsOfNeighbours() {
        assertEquals(0, DidYouMean.distance("core", "core"));
        assertEquals(1, DidYouMean.distance("coer", "core"), "one swap of neighbours");
        assertEquals(1, DidYouMean.distance("promts", "prompts"));
        assertEquals(3, DidYouMean.distance("kitten", "sitting"));
        assertEquals(3, DidYouMean.distance("", "abc"));
        assertEquals(2, DidYouMean.distance("ab", ""));
    }

    @Test
    void shouldNameOnlyCloseCandidatesNearestFirst() {
        assertEquals(List.of("l1Bytes"), DidYouMean.closest("l1Bytez", CORE));
        assertEquals(List.of("l1Bytes"), DidYouMean.closest("L1BYTES", CORE), "case alone");
        assertEquals(List.of("l2Bytes", "l1Bytes"), DidYouMean.closest("l3Bytes", CORE), "a tie: both, in order");
        assertEquals(List.of("concurrentIos"), DidYouMean.closest("concurrent", CORE), "the start of a name");
        assertEquals(List.of(), DidYouMean.closest("turbo", CORE));
        assertEquals(List.of(), DidYouMean.closest("x", CORE), "too short to guess");
        assertEquals(List.of(), DidYouMean.closest("l1", CORE), "too short to guess");
        assertEquals("; did you mean 'core.l1Bytes'?", DidYouMean.hint("l1Bytez", CORE, k -> "core." + k));
        assertEquals("", DidYouMean.hint("turbo", CORE, k -> k));
    }

    @Test
    void shouldSuggestTheKeyOfAMistypedKeyInTheFileOrASet() {
        assertTrue(error(MINIMAL + "[core]\nl1Bytez = 65536\n").startsWith("t.toml: key 'core.l1Bytez' is not a "
            + "known key; did you mean 'core.l1Bytes'? (known: l2Bytes, l2Fraction, l1Bytes, "), "in the file");
        assertTrue(error(MINIMAL, "workload.promts=3").startsWith("t.toml: key 'workload.promts' is not a known key; "
            + "did you mean 'workload.prompts'? (known: "), "by --set");
        assertTrue(error(MINIMAL.replace("requests = 4", "requests = 4\nordr = \"zipf\""))
            .startsWith("t.toml: key 'phase.0.ordr' is not a known key; did you mean 'phase.0.order'? (known: "));
        assertTrue(error(MINIMAL + "[faults]\ncrashPoint = 1\n").contains("did you mean 'faults.crashPoints'?"));
        final String far = error(MINIMAL + "[core]\nturbo = true\n");
        assertTrue(far.startsWith("t.toml: key 'core.turbo' is not a known key (known: "), far);
        assertFalse(far.contains("did you mean"), far);
    }

    @Test
    void shouldSuggestTheTableOfAMistypedTable() {
        assertTrue(error(MINIMAL + "[coer]\nl1Bytes = 65536\n").startsWith("t.toml: key 'coer' is not a known table;"
            + " did you mean 'core'? (known: scenario, model, "));
        assertTrue(error(MINIMAL, "wrkload.prompts=3").contains("key 'wrkload' is not a known table; did you mean "
            + "'workload'?"));
        assertTrue(error(MINIMAL + "[swarm]\n\"cores.l1Fraction\" = [0.5]\n").endsWith("must name a core, workload, "
            + "engine, sim, host, faults or phase.N key; did you mean 'core.l1Fraction'?"));
    }

    @Test
    void shouldSuggestTheLibraryScenarioOfAMistypedName() {
        final String library = " (one of " + String.join(", ", ScenarioLoader.LIBRARY) + ")";
        assertEquals("pr90-evict-smal: no such scenario file, and not a library scenario; did you mean "
            + "'pr90-evict-small'?" + library, loadError("pr90-evict-smal"));
        assertEquals("pr90-evict-small.toml: no such scenario file, and not a library scenario; did you mean "
            + "'pr90-evict-small'?" + library, loadError("pr90-evict-small.toml"), "a library name as a file");
        assertEquals("rare-path: no such scenario file, and not a library scenario; did you mean 'rare-paths'?"
            + library, loadError("rare-path"));
        assertEquals("nothing-like-it: no such scenario file, and not a library scenario" + library,
            loadError("nothing-like-it"));
    }

    @Test
    void shouldSuggestAScenarioFileBesideAMistypedPath(@TempDir final Path dir) throws IOException {
        Files.writeString(dir.resolve("my-scenario.toml"), MINIMAL);
        final String typed = dir.resolve("my-scenaro.toml").toString();
        assertTrue(loadError(typed).contains("; did you mean '" + dir.resolve("my-scenario.toml") + "'? (one of "),
            loadError(typed));
    }

    @Test
    void shouldSuggestTheModelPresetOfAMistypedOne() {
        assertTrue(error(MINIMAL, "model.preset=qwen3-8").startsWith("t.toml: key 'model.preset' names no bundled "
            + "model, got \"qwen3-8\"; did you mean 'qwen3-8b'? (presets: "));
    }

    private static String loadError(final String nameOrPath) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.load(nameOrPath, List.of())).getMessage();
    }
}
