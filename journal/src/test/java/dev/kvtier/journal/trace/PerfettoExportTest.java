package dev.kvtier.journal.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.testkit.ManualClock;
import dev.kvtier.journal.testkit.WorkloadMix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PerfettoExportTest {
    @TempDir
    Path temp;

    @Test
    void shouldWriteAValidTraceOfAJournal() throws Exception {
        final Path dir = temp.resolve("j");
        final ManualClock clock = new ManualClock();
        clock.advance(5_000_000_000L);
        final WorkloadMix mix = new WorkloadMix(9, clock);
        try (JournalWriter writer = new JournalWriter(dir, JournalHeader.of("s", 1, Map.of(), "c", "v",
            JournalHeader.VIRTUAL), clock)) {
            for (int r = 0; r < 50; r++) {
                mix.request(r, writer);
            }
        }
        final Path trace = temp.resolve("trace.json");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, PerfettoExport.export(dir, trace, new PrintStream(err, true, StandardCharsets.UTF_8)));
        final JsonNode root = JsonMapper.builder().build().readTree(trace);
        final Map<String, Integer> phases = validate(root);
        assertTrue(phases.get("X") >= 50 + 50 + 50 + 100, phases.toString());
        assertTrue(phases.get("i") > 50, phases.toString());
        assertTrue(phases.get("M") >= 5 + 50, phases.toString());
        final Set<String> named = new HashSet<>();
        for (final JsonNode event : root.get("traceEvents")) {
            if (event.get("ph").asString().equals("M") && event.get("name").asString().equals("thread_name")) {
                named.add(event.get("pid").asInt() + "/" + event.get("tid").asLong());
            }
        }
        for (final JsonNode event : root.get("traceEvents")) {
            if (!event.get("ph").asString().equals("M")) {
                assertTrue(named.contains(event.get("pid").asInt() + "/" + event.get("tid").asLong()),
                    "unnamed track for " + event);
            }
        }
    }

    @Test
    void shouldCloseOpenSlicesAndEscapeNames() throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfettoExport trace = new PerfettoExport(out)) {
            trace.add(new JournalEntry(0, 1_000, new CoreEvent.RequestArrived(7, "ph\"ase\n", 4, 1)));
            trace.add(new JournalEntry(1, 2_000, new CoreEvent.IoSubmitted(1, IoOp.READ, 0, 4096, 1)));
            trace.add(new JournalEntry(2, 2_500, new CoreEvent.IoSubmitted(2, IoOp.READ, 4096, 4096, 1)));
            trace.add(new JournalEntry(3, 3_000, new CoreEvent.IoCompleted(1, IoOp.READ, 0, 4096)));
            trace.add(new JournalEntry(4, 9_000, new CoreEvent.RequestFinished(7, "ph\"ase\n", 8_000, true)));
        }
        final JsonNode root = JsonMapper.builder().build().readTree(out.toByteArray());
        final Map<String, Integer> phases = validate(root);
        assertEquals(3, phases.get("X"), "request, one finished I/O, one unfinished I/O");
        boolean sawRequest = false;
        for (final JsonNode event : root.get("traceEvents")) {
            if (event.get("name").asString().equals("request ph\"ase\n")) {
                sawRequest = true;
                assertEquals(0.0, event.get("ts").asDouble());
                assertEquals(8.0, event.get("dur").asDouble());
            }
        }
        assertTrue(sawRequest);
    }

    @Test
    void shouldExitTwoOnABadJournal() throws Exception {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Path empty = Files.createDirectory(temp.resolve("empty"));
        assertEquals(2, PerfettoExport.export(empty, temp.resolve("t.json"),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("kvtier: " + empty + ": not a journal"));
    }

    /** Checks the trace-event format; returns how many events of each phase. */
    private static Map<String, Integer> validate(final JsonNode root) {
        assertTrue(root.isObject());
        final JsonNode events = root.get("traceEvents");
        assertTrue(events != null && events.isArray(), "traceEvents array");
        final Map<String, Integer> phases = new HashMap<>();
        for (final JsonNode event : events) {
            for (final String field : new String[] {"name", "ph", "ts", "pid", "tid"}) {
                assertTrue(event.has(field), field + " missing in " + event);
            }
            final String ph = event.get("ph").asString();
            assertTrue(Set.of("X", "i", "M").contains(ph), ph);
            assertTrue(event.get("ts").isNumber() && event.get("ts").asDouble() >= 0, event.toString());
            assertTrue(event.get("pid").isIntegralNumber() && event.get("tid").isIntegralNumber(), event.toString());
            if (ph.equals("X")) {
                assertTrue(event.get("dur").isNumber() && event.get("dur").asDouble() >= 0, event.toString());
            }
            if (ph.equals("i")) {
                assertEquals("t", event.get("s").asString());
            }
            if (ph.equals("M")) {
                assertTrue(event.get("args").get("name").isString(), event.toString());
            }
            phases.merge(ph, 1, Integer::sum);
        }
        return phases;
    }
}
