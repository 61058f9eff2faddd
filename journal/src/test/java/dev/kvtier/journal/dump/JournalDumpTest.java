package dev.kvtier.journal.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.testkit.EventSamples;
import dev.kvtier.journal.testkit.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalDumpTest {
    @TempDir
    Path temp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Path journal() throws Exception {
        final Path dir = temp.resolve("j");
        final ManualClock clock = new ManualClock();
        try (JournalWriter writer = new JournalWriter(dir, JournalHeader.of("s", 1, Map.of(), "c", "v",
            JournalHeader.VIRTUAL), clock)) {
            for (final CoreEvent event : EventSamples.all()) {
                clock.advance(10);
                writer.emit(event);
            }
        }
        return dir;
    }

    private int dump(final Path dir, final long from, final long to, final Set<String> types) {
        return JournalDump.dump(dir, from, to, types, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private List<String> lines() {
        final String text = out.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    @Test
    void shouldPrintOneLinePerEventWithSequenceTimeTypeAndFields() throws Exception {
        assertEquals(JournalDump.OK, dump(journal(), 0, Long.MAX_VALUE, Set.of()));
        final List<String> lines = lines();
        assertEquals(EventSamples.all().size(), lines.size());
        assertEquals("2 30 Allocated requestId=1008 key=" + EventSamples.key(9).hex() + " allocationId=1010"
            + " startSlot=34 slotCount=37", lines.get(2));
        assertTrue(lines.get(0).startsWith("0 10 Lookup modelId=3 keys=["), lines.get(0));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldFilterBySequenceRangeAndType() throws Exception {
        final Path dir = journal();
        assertEquals(JournalDump.OK, dump(dir, 2, 4, Set.of()));
        assertEquals(3, lines().size());
        out.reset();
        assertEquals(JournalDump.OK, dump(dir, 0, 1000, Set.of("IoSubmitted", "IoCompleted")));
        final List<String> lines = lines();
        assertEquals(2, lines.size());
        assertTrue(lines.get(0).contains(" IoSubmitted ioId="), lines.get(0));
        assertTrue(lines.get(1).contains(" IoCompleted ioId="), lines.get(1));
    }

    @Test
    void shouldEscapeTextsOnOneLine() {
        final StringBuilder line = new StringBuilder();
        JournalDump.format(new CoreEvent.PhaseStarted("a\"b\nc"), line);
        assertEquals("PhaseStarted phase=\"a\\\"b\\u000ac\"", line.toString());
    }

    @Test
    void shouldExitTwoWithOneLineOnABadJournal() throws Exception {
        final Path empty = Files.createDirectory(temp.resolve("empty"));
        assertEquals(JournalDump.BAD, dump(empty, 0, 10, Set.of()));
        final String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("kvtier: " + empty + ": not a journal"), message);
        assertEquals(1, message.split("\n").length);
        err.reset();
        assertEquals(JournalDump.BAD, dump(temp.resolve("nothing"), 0, 10, Set.of()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no such journal"));
    }

    @Test
    void shouldRejectAnUnknownTypeAndABadRange() throws Exception {
        final Path dir = journal();
        assertEquals(JournalDump.BAD, dump(dir, 0, 10, Set.of("Nope")));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("kvtier: unknown event type 'Nope'"));
        assertEquals(JournalDump.BAD, dump(dir, 5, 4, Set.of()));
        assertTrue(lines().isEmpty());
    }

    @Test
    void shouldNameEveryRecordInTheTypeTable() {
        final List<String> names = new ArrayList<>();
        for (final CoreEvent event : EventSamples.all()) {
            names.add(event.getClass().getSimpleName());
            final StringBuilder line = new StringBuilder();
            JournalDump.format(event, line);
            final int tag = EventLayout.tagOf(event.getClass().getSimpleName());
            assertTrue(tag > 0, event.getClass().getSimpleName());
            assertTrue(line.toString().startsWith(EventLayout.TYPE_NAMES.get(tag)));
        }
        assertEquals(names.size() + 1, EventLayout.TYPE_NAMES.size());
    }
}
