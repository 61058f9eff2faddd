package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.workload.Trace;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trace workloads in a scenario (issue 33 items 1 and 8): the bundled excerpts load by name, a file by a path
 * relative to the scenario, the window and the time scale pick and place the requests, the Azure format's wall-clock
 * times become offsets from its first request with ids of their own, and a bad line is one message naming
 * {@code FILE:LINE}.
 */
class TraceScenarioTest {
    private static final String HEAD = """
        [scenario]
        name = "t"
        [model]
        name = "m"
        kvHeads = 1
        headDim = 128
        layers = 8
        blockTokens = 16
        dtypeBytes = 2
        [workload]
        """;

    @TempDir
    Path dir;

    private static Trace trace(final String workload, final String... sets) throws ScenarioException {
        final WorkloadSpec w = ScenarioLoader.parse("t.toml", HEAD + workload, List.of(sets), null).spec().workload();
        assertTrue(w.isTrace());
        return w.trace();
    }

    @Test
    void shouldLoadTheBundledConversationExcerptAsOneOpenLoopPhase() throws ScenarioException {
        final Scenario s = ScenarioLoader.parse("t.toml", HEAD + "trace = \"mooncake-conversation-10min\"\n",
            List.of(), null);
        final WorkloadSpec w = s.spec().workload();
        final Trace t = w.trace();
        assertEquals(1750, t.size());
        assertEquals(512, t.blockTokens());
        // The file's first line: {"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0..13]}
        assertEquals(0, t.arrivalNs(0));
        assertEquals(6758, t.inputTokens(0));
        assertEquals(500, t.outputTokens(0));
        assertEquals(14, t.blocks(0));
        assertEquals(13, t.blockId(0, 13));
        assertEquals(List.of(WorkloadSpec.TRACE_PHASE), w.phases().stream().map(p -> p.name()).toList());
        assertEquals(1750, w.totalRequests());
        assertEquals(256, w.engine().maxRunning());
        assertEquals("5fb895949eb6028c62b3206dae9d30d668ad3a52aa6247a82cbf7f4c67f3de37",
            s.knobs().get("workload.traceSha256"));
        assertTrue(t.arrivalNs(t.size() - 1) < 600_000_000_000L);
    }

    @Test
    void shouldKeepTheWindowAndScaleItsArrivalsFromItsStart() throws ScenarioException {
        final Trace all = trace("trace = \"mooncake-conversation-10min\"\n");
        final Trace window = trace("""
            trace = "mooncake-conversation-10min"
            traceFromMs = 60000
            traceToMs = 120000
            traceTimeScale = 2.0
            """);
        int first = 0;
        while (all.arrivalNs(first) < 60_000_000_000L) {
            first++;
        }
        int end = first;
        while (all.arrivalNs(end) < 120_000_000_000L) {
            end++;
        }
        assertEquals(end - first, window.size());
        for (int i = 0; i < window.size(); i++) {
            assertEquals((all.arrivalNs(first + i) - 60_000_000_000L) / 2, window.arrivalNs(i), "request " + i);
            assertEquals(all.inputTokens(first + i), window.inputTokens(i));
            assertEquals(all.blockId(first + i, 0), window.blockId(i, 0));
        }
        assertEquals(10, trace("trace = \"mooncake-conversation-10min\"\ntraceRequests = 10\n").size());
        assertEquals(10, trace("trace = \"mooncake-conversation-10min\"\n", "workload.traceRequests=10").size());
    }

    @Test
    void shouldTakeAzureTimesFromTheFirstRequestAndGiveEveryRequestBlocksOfItsOwn() throws ScenarioException {
        final Trace t = trace("trace = \"azure-code-10min\"\n");
        assertEquals(1482, t.size());
        // 2023-11-16 18:17:03.9799600 then 18:17:04.0319600: 52 ms apart; 4808 context tokens, 10 generated.
        assertEquals(0, t.arrivalNs(0));
        assertEquals(52_000_000, t.arrivalNs(1));
        assertEquals(4808, t.inputTokens(0));
        assertEquals(10, t.outputTokens(0));
        final Set<Long> ids = new HashSet<>();
        long blocks = 0;
        for (int i = 0; i < t.size(); i++) {
            for (int b = 0; b < t.blocks(i); b++) {
                assertTrue(t.blockId(i, b) >= Trace.DISTINCT_IDS_FROM);
                ids.add(t.blockId(i, b));
                blocks++;
            }
        }
        assertEquals(blocks, ids.size(), "two requests share a block id");
    }

    @Test
    void shouldReadATraceFileRelativeToTheScenario() throws IOException, ScenarioException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/t.jsonl"), """
            {"timestamp": 0, "input_length": 600, "output_length": 3, "hash_ids": [1, 2], "extra": true}
            {"timestamp": 5, "input_length": 512, "output_length": 1, "hash_ids": [1]}
            """);
        final Path scenario = Files.writeString(dir.resolve("s.toml"), HEAD + "trace = \"sub/t.jsonl\"\n");
        final Trace t = ScenarioLoader.load(scenario.toString(), List.of()).spec().workload().trace();
        assertEquals(2, t.size());
        assertEquals(5_000_000, t.arrivalNs(1));
        assertEquals(3, t.outputTokens(0));
    }

    @Test
    void shouldNameTheFileAndLineOfABadRequest() throws IOException {
        Files.writeString(dir.resolve("t.jsonl"), """
            {"timestamp": 0, "input_length": 600, "output_length": 3, "hash_ids": [1, 2]}
            {"timestamp": 5, "input_length": 512, "output_length": 1, "hash_ids": [1, 2]}
            """);
        final Path scenario = Files.writeString(dir.resolve("s.toml"), HEAD + "trace = \"t.jsonl\"\n");
        final String message = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(scenario.toString(),
            List.of())).getMessage();
        assertEquals(dir.resolve("t.jsonl") + ":2: 'hash_ids' has 2 ids, but input_length 512 is 1 blocks of 512 "
            + "tokens (workload.traceBlockTokens)", message);
        assertEquals(1, message.lines().count());
    }

    @Test
    void shouldSizeFractionsOfTheTiersFromTheTracesDistinctSlots() throws ScenarioException {
        final Scenario s = ScenarioLoader.parse("t.toml", HEAD + "trace = \"mooncake-conversation-10min\"\n"
            + "[core]\nl2Fraction = 1.0\n", List.of(), null);
        final long distinct = s.spec().workload().trace().distinctSlots(16);
        assertEquals(distinct, s.spec().core().l2Slots());
        assertNotEquals(0, distinct);
    }
}
