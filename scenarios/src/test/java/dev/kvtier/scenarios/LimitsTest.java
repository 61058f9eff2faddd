package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Limits a run would hit later are refused when the scenario loads, with the key, the value and the limit. */
class LimitsTest {
    private static final String MINIMAL = MinimalScenario.TEXT;

    private static String error(final String text, final String... sets) {
        final String m = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", text,
            List.of(sets), null)).getMessage();
        assertEquals(1, m.lines().count(), m);
        return m;
    }

    @Test
    void shouldRejectAScenarioNameThatWouldEscapeADirectory() {
        for (final String name : List.of("../../etc/x", "a/b", ".hidden", "-x", "", "a b")) {
            final String e = error(MINIMAL.replace("name = \"t\"", "name = \"" + name + "\""));
            assertTrue(e.contains("scenario.name"), e);
        }
    }

    @Test
    void shouldRejectMoreBlocksAPromptThanAJournalEventHolds() {
        final String e = error(MINIMAL, "workload.inputTokens=16777216");
        assertTrue(e.contains("'workload.inputTokens' = 16777216") && e.contains("65536"), e);
    }

    @Test
    void shouldRejectARingWhoseIndexOutgrowsTheIndexDevice() {
        final String e = error(MINIMAL + "[core]\nl2Bytes = 1125899906842624\n");
        assertTrue(e.contains("'core.l2Bytes'") && e.contains("268435456"), e);
    }

    @Test
    void shouldRejectNumbersBeyondSixtyFourBits() {
        assertTrue(error(MINIMAL.replace("prompts = 4", "prompts = 99999999999999999999")).contains(
            "workload.prompts"));
        assertTrue(error(MINIMAL, "workload.prompts=99999999999999999999").contains("64-bit"));
    }

    @Test
    void shouldRejectASlotBeyondSixtyFourBitsOrAGibibyte() {
        assertTrue(error(MINIMAL.replace("name = \"m\"", "name = \"m\"\nkvHeads = 65536\nheadDim = 65536\nlayers = "
            + "4096\nblockTokens = 65536\ndtypeBytes = 8")).contains("64 bits"));
        assertTrue(error(MINIMAL.replace("name = \"m\"", "name = \"m\"\nkvHeads = 1024\nheadDim = 1024\n"))
            .contains("slot"));
    }

    @Test
    void shouldRejectARequestThatCannotFinishWithinTheLivenessBound() {
        final String e = error(MINIMAL, "engine.stepFixedNs=100000000000", "sim.livenessBoundSeconds=10");
        assertTrue(e.contains("'engine.stepFixedNs' = 100000000000") && e.contains("= 10"), e);
    }

    @Test
    void shouldRejectAPhaseIndexOutOfRangeInAnOverride() {
        assertTrue(error(MINIMAL, "phase.-1.requests=3").contains("no phase -1"));
        assertTrue(error(MINIMAL, "phase.7.requests=3").contains("no phase 7"));
    }

    @Test
    void shouldRejectAProfileLatencyOfMoreThanAnHour() throws Exception {
        final java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("limits");
        java.nio.file.Files.writeString(dir.resolve("d.toml"), """
            name = "d"
            readLatencyNs = 9000000000000000000
            writeLatencyNs = 1
            flushLatencyNs = 1
            readBytesPerSec = 1
            writeBytesPerSec = 1
            parallelism = 1
            """);
        final String e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", MINIMAL, List.of(
            "sim.device=d.toml"), dir)).getMessage();
        assertTrue(e.contains("readLatencyNs"), e);
    }
}
