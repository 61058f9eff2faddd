package dev.kvtier.cli;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.journal.file.JournalWriter;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code kvtier journal dump}, {@code kvtier trace} and bad journals through every journal command. */
class JournalToolsTest {
    @TempDir
    static Path temp;

    private static Path journal;

    @BeforeAll
    static void record() {
        journal = CliRun.record(temp.resolve("good"), "pr90-evict-small", 1);
    }

    @Test
    void shouldDumpARangeOfOneType() {
        final CliRun all = CliRun.of("journal", "dump", journal.toString(), "--from", "10", "--to", "19");
        assertEquals(ExitCodes.OK, all.exitCode(), all.err());
        final List<String> lines = all.out().lines().toList();
        assertEquals(10, lines.size(), all.out());
        assertTrue(lines.getFirst().startsWith("10 "), lines.getFirst());
        final CliRun evictions = CliRun.of("journal", "dump", journal.toString(), "--type", "EntryEvicted");
        assertEquals(ExitCodes.OK, evictions.exitCode(), evictions.err());
        assertFalse(evictions.out().isEmpty());
        assertTrue(evictions.out().lines().allMatch(l -> l.split(" ", -1)[2].equals("EntryEvicted")), evictions.out());
        assertEquals(ExitCodes.BAD_INPUT, CliRun.of("journal", "dump", journal.toString(), "--type", "Nope")
            .exitCode());
    }

    @Test
    void shouldExportAPerfettoTraceThatParses() throws Exception {
        final Path out = temp.resolve("trace.json");
        final CliRun trace = CliRun.of("trace", journal.toString(), "--perfetto", out.toString());
        assertEquals(ExitCodes.OK, trace.exitCode(), trace.err());
        final JsonNode root = ReportJson.mapper().readTree(Files.readString(out));
        final JsonNode events = root.get("traceEvents");
        assertTrue(events.isArray() && events.size() > 100, "trace events: " + events.size());
        int slices = 0;
        for (final JsonNode e : events) {
            assertTrue(e.has("ph") && e.has("pid") && e.has("name"), e.toString());
            if (e.get("ph").stringValue().equals("X")) {
                slices++;
                assertTrue(e.get("ts").isNumber() && e.get("dur").doubleValue() >= 0, e.toString());
            }
        }
        assertTrue(slices > 10, "complete slices: " + slices);
    }

    @Test
    void shouldRejectATruncatedJournalEverywhere() throws Exception {
        final Path dir = copy("cut");
        final Path data = dataFile(dir);
        final long end = lastNonZeroByte(data);
        // Zero the second half of the events (after the header excerpt, which starts with the magic KVTJ).
        final long from = (firstEventsByte(data) + end) / 2;
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.seek(from);
            f.write(new byte[(int) (end - from + 1)]);
        }
        expectBad(dir, "truncated journal");
    }

    @Test
    void shouldRejectAnUnclosedJournalEverywhere() throws Exception {
        final Path dir = copy("unclosed");
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path p : files.filter(p -> p.getFileName().toString().endsWith(".seal")).toList()) {
                Files.delete(p);
            }
        }
        expectBad(dir, "truncated journal");
    }

    @Test
    void shouldRejectACorruptedJournalEverywhere() throws Exception {
        final Path dir = copy("flip");
        final Path data = dataFile(dir);
        // Two thirds into the excerpts (Chronicle's index areas come first, apart, and are not read back).
        final long end = lastNonZeroByte(data);
        final long start = excerptsStart(data, end);
        final long at = start + (end - start) * 2 / 3;
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.seek(at);
            final int b = f.read();
            f.seek(at);
            f.write(b ^ 0x10);
        }
        expectBad(dir, "corrupted journal");
    }

    @Test
    void shouldRejectANewerFormatEverywhere() throws Exception {
        final Path dir = temp.resolve("newer");
        try (JournalReader reader = JournalReader.open(journal)) {
            final JournalHeader h = reader.header();
            final JournalHeader newer = new JournalHeader(h.formatVersion() + 1, h.scenario(), h.seed(), h.knobs(),
                h.configDigest(), h.codeVersion(), h.mode());
            try (JournalWriter writer = new JournalWriter(dir, newer, () -> 0)) {
                writer.emit(new CoreEvent.DrainRequested());
            }
        }
        expectBad(dir, "newer format");
    }

    @Test
    void shouldRejectWhatIsNotAJournal() throws Exception {
        final Path dir = Files.createDirectories(temp.resolve("notes"));
        Files.writeString(dir.resolve("notes.txt"), "not a journal\n");
        expectBad(dir, "not a journal");
        expectBad(Files.createDirectories(temp.resolve("empty")), "not a journal");
        expectBad(temp.resolve("missing"), "no such journal");
    }

    /** Every journal command exits 2 with one line naming the problem, and prints no verdict or stack trace. */
    private void expectBad(final Path dir, final String problem) {
        final Path trace = temp.resolve("bad-trace-" + dir.getFileName() + ".json");
        for (final String[] args : new String[][] {{"replay", dir.toString()},
            {"replay", dir.toString(), "--until", "5"}, {"journal", "dump", dir.toString()},
            {"trace", dir.toString(), "--perfetto", trace.toString()}}) {
            final CliRun run = CliRun.of(args);
            final String what = String.join(" ", args) + " -> " + run.exitCode() + "\n" + run.out() + run.err();
            assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), what);
            assertEquals(1, run.err().lines().count(), what);
            assertTrue(run.err().contains(problem), what);
            assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), what);
            assertFalse(run.out().contains("identical") || run.out().contains("DIVERGED")
                || run.out().contains("stopped"), what);
        }
        assertFalse(Files.exists(trace), "no partial trace is left");
    }

    private Path copy(final String name) throws Exception {
        final Path dir = ReplayCommandTest.copyWithOneChange(journal, temp.resolve(name), -1, e -> e);
        assertEquals(count(journal), count(dir), "an undamaged copy reads whole");
        return dir;
    }

    private static Path dataFile(final Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    /** Where the header excerpt starts (its magic, KVTJ), plus 64 KiB: well inside the events. */
    private static long firstEventsByte(final Path file) throws Exception {
        final String bytes = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
        final int at = bytes.indexOf("KVTJ");
        if (at < 0) {
            throw new AssertionError(file + " holds no journal header");
        }
        return at + (64L << 10);
    }

    /** The offset of the file's last non-zero byte (Chronicle preallocates the rest). */
    private static long lastNonZeroByte(final Path file) throws Exception {
        final byte[] bytes = Files.readAllBytes(file);
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] != 0) {
                return i;
            }
        }
        throw new AssertionError(file + " is all zeros");
    }

    /** Where the last stretch of bytes without 4 KiB of zeros in it, the one that ends at {@code end}, starts. */
    private static long excerptsStart(final Path file, final long end) throws Exception {
        final byte[] bytes = Files.readAllBytes(file);
        int zeros = 0;
        for (int i = (int) end; i >= 0; i--) {
            zeros = bytes[i] == 0 ? zeros + 1 : 0;
            if (zeros == 4096) {
                return (long) i + zeros;
            }
        }
        return 0;
    }

    /** Reads a journal to the end (to make sure copies are valid before they are damaged). */
    private static long count(final Path dir) throws Exception {
        try (JournalReader reader = JournalReader.open(dir)) {
            long n = 0;
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                n = e.sequence() + 1;
            }
            return n;
        }
    }
}
