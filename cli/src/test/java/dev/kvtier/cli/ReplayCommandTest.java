package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.replay.ConfigDigest;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayCommandTest {
    private static final Pattern IDENTICAL = Pattern.compile("identical: (\\d+) events");

    @TempDir
    Path temp;

    @Test
    void shouldReplayTenSeedsOfTheSmallScenarioIdentically() throws Exception {
        for (long seed = 1; seed <= 10; seed++) {
            final Path dir = CliRun.record(temp.resolve("seed" + seed), "pr90-evict-small", seed,
                "workload.prompts=" + (6 + seed), "core.l1Fraction=0." + (3 + seed % 6),
                "core.replacement=" + (seed % 2 == 0 ? "lru" : "prefix-lru"));
            assertIdentical(dir);
        }
    }

    @Test
    void shouldReplayLoadsThatCallTheCoreFromTheirCallbacks() throws Exception {
        // Zipf prefix sharing: partial hits, so the driver allocates from inside load callbacks.
        assertIdentical(CliRun.record(temp.resolve("zipf"), "prefix-sharing-zipf", 4));
    }

    /** A run of the reversed staging layout replays with it: the header carries the knob, packed ones do not. */
    @Test
    void shouldReplayARunOfTheReversedStagingLayout() throws Exception {
        final Path dir = CliRun.record(temp.resolve("reversed"), "pr90-evict-small", 5,
            "core.stagingLayout=reversed", "core.coalesceStoreSpans=true");
        try (JournalReader reader = JournalReader.open(dir)) {
            assertEquals("REVERSED", reader.header().knobs().get("core.stagingLayout"));
        }
        assertIdentical(dir);
        try (JournalReader reader = JournalReader.open(CliRun.record(temp.resolve("packed"), "pr90-evict-small", 5))) {
            assertFalse(reader.header().knobs().containsKey("core.stagingLayout"), "packed runs keep their headers");
        }
    }

    @Test
    void shouldReplayAJournalRepeatedlyInOneJvm() {
        final Path dir = CliRun.record(temp.resolve("rep"), "pr90-evict-small", 3);
        final CliRun run = CliRun.of("replay", dir.toString(), "--repeat", "3");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertEquals(3, run.out().lines().filter(l -> l.startsWith("identical: ")).distinct().count() == 1
            ? run.out().lines().filter(l -> l.startsWith("identical: ")).count() : -1, run.out());
        assertEquals(3, run.out().lines().filter(l -> l.matches("replayed in .* events/s\\)")).count(), run.out());
        assertEquals(ExitCodes.BAD_INPUT, CliRun.of("replay", dir.toString(), "--repeat", "0").exitCode());
    }

    @Test
    void shouldRecordTheRunInTheHeader() throws Exception {
        final Path dir = CliRun.record(temp.resolve("h"), "pr90-evict-small", 7);
        try (JournalReader reader = JournalReader.open(dir)) {
            final JournalHeader h = reader.header();
            assertEquals(7, h.seed());
            assertEquals(JournalHeader.VIRTUAL, h.mode());
            assertTrue(h.scenario().contains("[workload]"), "the scenario's full text");
            assertEquals("pr90-evict-small", h.knobs().get("scenario.name"));
            assertEquals("LRU", h.knobs().get("core.replacement"));
            assertEquals(ConfigDigest.of(h.knobs()), h.configDigest());
            assertTrue(h.codeVersion().matches("[0-9a-f]{40}|unknown"), h.codeVersion());
        }
    }

    @Test
    void shouldReportAnEditedEvictionAsDivergentAtItsSequence() throws Exception {
        final Path dir = CliRun.record(temp.resolve("orig"), "pr90-evict-small", 2);
        final long target = firstOf(dir, CoreEvent.EntryEvicted.class);
        final Path edited = copyWithOneChange(dir, temp.resolve("edited"), target, e -> {
            final CoreEvent.EntryEvicted ev = (CoreEvent.EntryEvicted) e;
            return new CoreEvent.EntryEvicted(ev.fileOffset(), ev.lengthBytes(), ev.poolOffset() + 4096,
                ev.headroom(), ev.pendingWrite(), ev.reason());
        });
        final CliRun replay = CliRun.of("replay", edited.toString());
        assertEquals(ExitCodes.INVARIANT, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("DIVERGED at sequence " + target + " "), replay.out());
        assertTrue(replay.out().contains("  recorded  " + target + " "), replay.out());
        assertTrue(replay.out().contains("  replayed  EntryEvicted"), replay.out());
        assertTrue(replay.out().contains("  before    " + (target - 1) + " "), replay.out());
        assertFalse(replay.out().contains("identical"), replay.out());
    }

    @Test
    void shouldReportAnEditedCompletionResultAsDivergent() throws Exception {
        final Path dir = CliRun.record(temp.resolve("orig"), "pr90-evict-small", 3);
        final long target = firstOf(dir, CoreEvent.IoCompleted.class);
        final Path edited = copyWithOneChange(dir, temp.resolve("edited"), target, e -> {
            final CoreEvent.IoCompleted io = (CoreEvent.IoCompleted) e;
            return new CoreEvent.IoCompleted(io.ioId(), io.op(), io.fileOffset(), -5);
        });
        final CliRun replay = CliRun.of("replay", edited.toString());
        assertEquals(ExitCodes.INVARIANT, replay.exitCode(), replay.out() + replay.err());
        final Matcher m = Pattern.compile("DIVERGED at sequence (\\d+) ").matcher(replay.out());
        assertTrue(m.find(), replay.out());
        assertTrue(Long.parseLong(m.group(1)) > target, "the failed write shows after the edited input: "
            + replay.out());
    }

    @Test
    void shouldStopWhereAskedAndPrintTheState() throws Exception {
        final Path dir = CliRun.record(temp.resolve("until"), "pr90-evict-small", 5);
        final long target = firstOf(dir, CoreEvent.WriteFinished.class);
        final CliRun replay = CliRun.of("replay", dir.toString(), "--until", Long.toString(target));
        assertEquals(ExitCodes.OK, replay.exitCode(), replay.out() + replay.err());
        for (final String section : new String[] {"stopped: --until " + target, "state after event ", "L1: ",
            "  entry fileOffset=", "pending writes: ", "I/O: in flight ", "ring: head ", "directory: ",
            "  chunk key="}) {
            assertTrue(replay.out().contains(section), section + " in " + replay.out());
        }
        assertFalse(replay.out().contains("identical"), replay.out());
    }

    private static void assertIdentical(final Path dir) throws Exception {
        final CliRun replay = CliRun.of("replay", dir.toString());
        assertEquals(ExitCodes.OK, replay.exitCode(), dir + ": " + replay.out() + replay.err());
        final Matcher m = IDENTICAL.matcher(replay.out());
        assertTrue(m.find(), replay.out());
        try (JournalReader reader = JournalReader.open(dir)) {
            assertEquals(reader.eventCount(), Long.parseLong(m.group(1)), replay.out());
        }
    }

    private static long firstOf(final Path dir, final Class<? extends CoreEvent> type) throws Exception {
        try (JournalReader reader = JournalReader.open(dir)) {
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                if (type.isInstance(e.event())) {
                    return e.sequence();
                }
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + dir);
    }

    /** Copies a journal event by event (same header and times) with event {@code sequence} rewritten. */
    static Path copyWithOneChange(final Path from, final Path to, final long sequence,
                                  final UnaryOperator<CoreEvent> change) throws Exception {
        final long[] now = new long[1];
        try (JournalReader reader = JournalReader.open(from);
             JournalWriter writer = new JournalWriter(to, reader.header(), () -> now[0])) {
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                now[0] = e.timeNs();
                writer.emit(e.sequence() == sequence ? change.apply(e.event()) : e.event());
            }
        }
        return to;
    }
}
