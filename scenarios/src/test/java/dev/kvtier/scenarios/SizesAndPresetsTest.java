package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sizes with units, model presets, a size given one way replacing the other, and the gate's baseline resolved beside
 * its scenario (issue 35's paper cuts).
 */
class SizesAndPresetsTest {

    private static Scenario load(final String model, final String core, final String... sets) throws ScenarioException {
        final String text = """
            [scenario]
            name = "t"
            [model]
            %s
            [workload]
            prompts = 4
            inputTokens = 256
            [[phase]]
            name = "cold"
            requests = 4
            [core]
            %s
            """.formatted(model, core);
        return ScenarioLoader.parse("t.toml", text, List.of(sets), null);
    }

    @Test
    void shouldReadSizesWithUnitsExactly() {
        assertEquals(64L << 30, Sizes.parse("64GiB"));
        assertEquals(2_359_296, Sizes.parse("2.25MiB"));
        assertEquals(1_500_000_000L, Sizes.parse("1.5 GB"));
        assertEquals(4096, Sizes.parse("4096"));
        assertEquals(8192, Sizes.parse("8kib"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1.3B")).getMessage()
            .contains("whole number of bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sizes.parse("lots")).getMessage()
            .contains("must be a size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sizes.parse("64 GiBs")).getMessage()
            .contains("must be a size"));
    }

    @Test
    void shouldTakeSizesWithUnitsInTheScenarioAndInSet() throws ScenarioException {
        final Scenario s = load("name = \"m\"", "l2Bytes = \"1GiB\"\nstagingBatchBytes = \"2.25MiB\"",
            "core.l1Bytes=512MiB");
        assertEquals((1L << 30) / s.model().slotBytes() * s.model().slotBytes(), s.spec().core().l2Bytes());
        assertEquals(512L << 20, s.spec().core().l1Bytes());
        assertEquals(2_359_296, s.spec().core().stagingBatchBytes());
        final ScenarioException e = assertThrows(ScenarioException.class, () -> load("name = \"m\"",
            "l2Bytes = \"a lot\""));
        assertTrue(e.getMessage().contains("core.l2Bytes") && e.getMessage().contains("must be a size"),
            e.getMessage());
    }

    @Test
    void shouldReplaceAFractionWithBytesFromSet() throws ScenarioException {
        final Scenario s = load("name = \"m\"", "l1Fraction = 0.5", "core.l1Bytes=64MiB");
        assertEquals(64L << 20, s.spec().core().l1Bytes());
        assertTrue(assertThrows(ScenarioException.class, () -> load("name = \"m\"",
            "l1Fraction = 0.5\nl1Bytes = 67108864")).getMessage().contains("cannot be set together"),
            "in the file itself both is still an error");
    }

    @Test
    void shouldSizeSlotsFromEachPreset() throws ScenarioException {
        assertEquals(2_359_296, load("preset = \"qwen3-8b\"", "").model().slotBytes());
        assertEquals(2_097_152, load("preset = \"llama-3.1-8b\"", "").model().slotBytes());
        assertEquals(5_242_880, load("preset = \"Llama-3.1-70B\"", "").model().slotBytes());
        final Scenario mla = load("preset = \"deepseek-v3\"", "");
        assertEquals(4_497_408, mla.model().slotBytes(), "576 x 61 layers x 64 tokens x 2 B, one latent a token");
        assertEquals("DeepSeek-V3", mla.model().name());
        assertEquals(70_272, mla.model().slotBytes() / mla.model().blockTokens(), "bytes a token");
        assertEquals(1_048_576, load("preset = \"llama-3.1-8b\"\nlayers = 16", "").model().slotBytes(),
            "a key beside the preset overrides it");
        final ScenarioException e = assertThrows(ScenarioException.class, () -> load("preset = \"gpt-9\"", ""));
        assertTrue(e.getMessage().contains("deepseek-v3, llama-3.1-70b, llama-3.1-8b, qwen3-8b"), e.getMessage());
    }

    @Test
    void shouldResolveTheGatesBaselineBesideTheScenario(@TempDir final Path dir) throws Exception {
        final String gated = """
            [scenario]
            name = "g"
            [model]
            name = "m"
            [workload]
            prompts = 4
            inputTokens = 256
            [[phase]]
            name = "cold"
            requests = 4
            [gate]
            baseline = "%s"
            maxSlowdown = 0.1
            """;
        final Path file = dir.resolve("sub").resolve("g.toml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, gated.formatted("base.toml"));
        assertEquals(file.getParent().resolve("base.toml").toString(),
            ScenarioLoader.load(file.toString(), List.of()).gate().baseline(), "beside the scenario, not the cwd");
        Files.writeString(file, gated.formatted("pr90-evict"));
        assertEquals("pr90-evict", ScenarioLoader.load(file.toString(), List.of()).gate().baseline());
    }
}
