package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.KeyDictionary;
import dev.kvtier.journal.file.JournalException.Problem;
import dev.kvtier.journal.testkit.EventSamples;
import dev.kvtier.journal.testkit.ManualClock;
import dev.kvtier.journal.testkit.RandomEvents;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalFileTest {
    private static final String SCENARIO = "[workload]\nrequests = 40\nphase = \"cold\"\n# caf\u00e9\n";

    @TempDir
    Path temp;

    /** Events per block in the journals these tests write, so that a journal of thousands has many blocks. */
    static final int BLOCK_EVENTS = 100;

    static JournalHeader header() {
        return JournalHeader.of(SCENARIO, 42, Map.of("l1Bytes", "1073741824", "concurrentIos", "8"), "cfg-abc",
            "0123abcd", JournalHeader.VIRTUAL);
    }

    static List<CoreEvent> events(final int count) {
        final List<CoreEvent> events = new ArrayList<>(EventSamples.all());
        final RandomEvents random = new RandomEvents(3);
        while (events.size() < count) {
            events.add(random.any());
        }
        return events;
    }

    static String write(final Path dir, final JournalHeader header,
                        final List<CoreEvent> events) throws JournalException {
        final ManualClock clock = new ManualClock();
        clock.advance(1_000_000);
        final JournalWriter writer = new JournalWriter(dir, header, clock, Long.MAX_VALUE, "a test", BLOCK_EVENTS);
        for (int i = 0; i < events.size(); i++) {
            clock.advance(i % 3 == 0 ? 0 : 250 * i);
            writer.emit(events.get(i));
        }
        writer.close();
        assertNull(writer.failure());
        return writer.eventDigest();
    }

    @Test
    void shouldSealWhatWasWrittenWhenTheJournalDiskIsFull() throws Exception {
        final Path dir = temp.resolve("full");
        final List<CoreEvent> events = events(3_000);
        final ManualClock clock = new ManualClock();
        clock.advance(1_000_000);
        final JournalWriter writer = new JournalWriter(dir, header(), clock, 64 << 10);
        for (final CoreEvent e : events) {
            clock.advance(10);
            writer.emit(e);
        }
        final JournalException full = assertThrows(JournalException.class, writer::close);
        assertEquals(Problem.WRITE_FAILED, full.problem());
        assertTrue(full.getMessage().contains("journal disk full after"), full.getMessage());
        assertFalse(full.getMessage().contains("\n"), "one line");
        final long kept = writer.eventCount();
        assertTrue(kept > 0 && kept < events.size(), "some events fit, not all: " + kept);
        try (JournalReader reader = JournalReader.open(dir)) {
            assertEquals(kept, reader.eventCount(), "the seal counts what was written");
            int i = 0;
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                assertEquals(events.get(i), entry.event(), "event " + i + " intact");
                i++;
            }
            assertEquals(kept, i, "every event written before the disk filled reads back");
        }
    }

    @Test
    void shouldReadBackTheHeaderAndEveryEventInOrder() throws Exception {
        final Path dir = temp.resolve("j");
        final List<CoreEvent> events = events(3_000);
        final String written = write(dir, header(), events);
        final EventDigest expected = new EventDigest();
        try (JournalReader reader = JournalReader.open(dir)) {
            assertEquals(header(), reader.header());
            assertEquals(events.size(), reader.eventCount());
            int i = 0;
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                assertEquals(i, entry.sequence());
                assertEquals(events.get(i), entry.event());
                expected.add(entry.timeNs(), entry.event());
                i++;
            }
            assertEquals(events.size(), i);
            assertNull(reader.next(), "stays at the end");
            assertEquals(written, reader.eventDigest());
        }
        assertEquals(expected.finish(), written);
        final JournalSummary summary = JournalReader.verify(dir);
        assertEquals(events.size(), summary.eventCount());
        assertEquals(1_000_000, summary.firstTimeNs());
        assertTrue(summary.lastTimeNs() > summary.firstTimeNs());
    }

    @Test
    void shouldWriteByteIdenticalFilesForIdenticalRuns() throws Exception {
        final Path a = temp.resolve("a");
        final Path b = temp.resolve("b");
        write(a, header(), events(5_000));
        write(b, header(), events(5_000));
        assertSameFiles(a, b);
        JournalReader.verify(a);
        assertSameFiles(a, b);
    }

    @Test
    void shouldWriteDifferentFilesWhenOneEventDiffers() throws Exception {
        final List<CoreEvent> changed = events(100);
        changed.set(50, new CoreEvent.RequestReleased(123_456));
        write(temp.resolve("a"), header(), events(100));
        write(temp.resolve("b"), header(), changed);
        final Path data = Path.of(ExcerptLayout.DATA_FILE);
        assertTrue(Files.mismatch(temp.resolve("a").resolve(data), temp.resolve("b").resolve(data)) >= 0);
    }

    @Test
    void shouldRejectAMissingPath() {
        expect(Problem.MISSING, temp.resolve("nope"));
    }

    @Test
    void shouldRejectAnEmptyDirectory() throws IOException {
        final Path dir = Files.createDirectory(temp.resolve("empty"));
        assertTrue(expect(Problem.NOT_A_JOURNAL, dir).getMessage().contains("empty"));
    }

    @Test
    void shouldRejectADirectoryOfOtherFiles() throws IOException {
        final Path dir = Files.createDirectory(temp.resolve("other"));
        final byte[] noise = new byte[10_000];
        new SplittableRandom(1).nextBytes(noise);
        Files.write(dir.resolve("data.bin"), noise);
        Files.writeString(dir.resolve("notes.txt"), "hello");
        expect(Problem.NOT_A_JOURNAL, dir);
        expect(Problem.NOT_A_JOURNAL, dir.resolve("notes.txt"));
    }

    @Test
    void shouldRejectRandomQueueFilesWithoutASeal() throws IOException {
        final Path dir = Files.createDirectory(temp.resolve("fake"));
        final byte[] noise = new byte[100_000];
        new SplittableRandom(2).nextBytes(noise);
        Files.write(dir.resolve(ExcerptLayout.DATA_FILE), noise);
        expect(Problem.TRUNCATED, dir);
    }

    @Test
    void shouldRejectAQueueFileCutShort() throws Exception {
        final Path dir = temp.resolve("cut");
        write(dir, header(), events(2_000));
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(ExcerptLayout.DATA_FILE).toFile(), "rw")) {
            file.setLength(60_000);
        }
        assertTrue(expect(Problem.TRUNCATED, dir).getMessage().contains("sealed at"));
    }

    @Test
    void shouldRejectAJournalWhoseTailIsGone() throws Exception {
        final Path dir = temp.resolve("tail");
        final List<CoreEvent> events = events(2_000);
        write(dir, header(), events);
        final long excerptStart = find(dir, blockStart(1_500)) - 4;
        zero(dir, excerptStart, 1 << 20);
        final JournalException e = readAll(dir);
        assertEquals(Problem.TRUNCATED, e.problem(), e.getMessage());
        assertTrue(e.getMessage().contains("ends after 1500 events"), e.getMessage());
    }

    @Test
    void shouldDetectAFlippedByteAsCorruption() throws Exception {
        final Path dir = temp.resolve("flip");
        final List<CoreEvent> events = events(2_000);
        write(dir, header(), events);
        final long at = find(dir, blockStart(700)) + 6;
        flip(dir, at);
        final JournalException e = readAll(dir);
        assertEquals(Problem.CORRUPTED, e.problem(), e.getMessage());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        assertTrue(e.getMessage().contains("sequence 700"), e.getMessage());
    }

    @Test
    void shouldDetectAFlippedHeaderByte() throws Exception {
        final Path dir = temp.resolve("flipheader");
        write(dir, header(), events(10));
        flip(dir, find(dir, "requests = 40".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        expect(Problem.CORRUPTED, dir);
    }

    @Test
    void shouldRejectANewerFormatVersion() throws Exception {
        final Path dir = temp.resolve("newer");
        final JournalHeader current = header();
        final JournalHeader newer = new JournalHeader(ExcerptLayout.FORMAT_VERSION + 1, current.scenario(),
            current.seed(), current.knobs(), current.configDigest(), current.codeVersion(), current.mode());
        write(dir, newer, events(10));
        assertTrue(
            expect(Problem.NEWER_VERSION, dir).getMessage().contains("version " + (ExcerptLayout.FORMAT_VERSION + 1)));
    }

    @Test
    void shouldRejectAJournalWhoseWriterWasNotClosed() throws Exception {
        final Path dir = temp.resolve("open");
        write(dir, header(), events(10));
        Files.delete(dir.resolve(SealLayout.FILE_NAME));
        assertTrue(expect(Problem.TRUNCATED, dir).getMessage().contains("not closed"));
    }

    @Test
    void shouldRejectASequenceGapAndABadTag() throws Exception {
        final ExcerptCodec codec = new ExcerptCodec();
        final EventBuffer buffer = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final EventBuffer entries = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final EventBuffer scratch = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final KeyDictionary keys = new KeyDictionary();
        final List<byte[]> gap = new ArrayList<>();
        codec.entry(0, 0, new CoreEvent.RequestReleased(0), keys, scratch, entries);
        codec.entry(0, 10, new CoreEvent.RequestReleased(1), keys, scratch, entries);
        codec.block(0, 2, entries, buffer);
        gap.add(buffer.toByteArray());
        entries.reset();
        codec.entry(10, 30, new CoreEvent.RequestReleased(3), keys, scratch, entries);
        codec.block(3, 1, entries, buffer);
        gap.add(buffer.toByteArray());
        final JournalException e = readAll(RawJournal.write(temp.resolve("gap"), header(), gap, 3));
        assertEquals(Problem.TRUNCATED, e.problem(), e.getMessage());
        assertTrue(e.getMessage().contains("expected 2, found 3"), e.getMessage());

        entries.reset();
        codec.entry(0, 5, new CoreEvent.RequestReleased(1), keys, scratch, entries);
        entries.array()[2] = 99;
        codec.block(0, 1, entries, buffer);
        final JournalException tag = readAll(RawJournal.write(temp.resolve("tag"), header(),
            List.of(buffer.toByteArray()), 1));
        assertEquals(Problem.CORRUPTED, tag.problem(), tag.getMessage());
        assertTrue(tag.getMessage().contains("bad event tag 99"), tag.getMessage());
    }

    @Test
    void shouldReadFormatsTwoAndThreeWithOneExcerptPerEventAndRejectTheirGapsAndBadTags() throws Exception {
        final ExcerptCodec codec = new ExcerptCodec();
        final EventBuffer buffer = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final JournalHeader now = header();
        final List<CoreEvent> events = events(300);
        for (final int version : new int[] {2, 3}) {
            final JournalHeader old = new JournalHeader(version, now.scenario(), now.seed(), now.knobs(),
                now.configDigest(), now.codeVersion(), now.mode());
            final List<byte[]> whole = new ArrayList<>();
            final EventDigest digest = new EventDigest(EventDigest.Algorithm.SHA_256);
            for (int i = 0; i < events.size(); i++) {
                codec.event(i, 10L * i, events.get(i), buffer);
                whole.add(buffer.toByteArray());
                digest.add(10L * i, events.get(i));
            }
            final Path dir = RawJournal.write(temp.resolve("v" + version), old, whole, events.size(),
                digest.finish());
            try (JournalReader reader = JournalReader.open(dir)) {
                assertEquals(version, reader.header().formatVersion());
                int i = 0;
                for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                    assertEquals(events.get(i), entry.event());
                    assertEquals(10L * i, entry.timeNs());
                    i++;
                }
                assertEquals(events.size(), i);
            }
        }
        final JournalHeader two = new JournalHeader(2, now.scenario(), now.seed(), now.knobs(), now.configDigest(),
            now.codeVersion(), now.mode());

        final List<byte[]> gap = new ArrayList<>();
        for (final long sequence : new long[] {0, 1, 3}) {
            codec.event(sequence, 10 * sequence, new CoreEvent.RequestReleased(sequence), buffer);
            gap.add(buffer.toByteArray());
        }
        final JournalException e = readAll(RawJournal.write(temp.resolve("gap2"), two, gap, 3));
        assertEquals(Problem.TRUNCATED, e.problem(), e.getMessage());
        assertTrue(e.getMessage().contains("expected 2, found 3"), e.getMessage());

        codec.event(0, 5, new CoreEvent.RequestReleased(1), buffer);
        final byte[] bad = buffer.toByteArray();
        bad[3] = 99;
        final JournalException tag = readAll(RawJournal.write(temp.resolve("tag2"), two,
            List.of(RawJournal.recrc(bad)), 1));
        assertEquals(Problem.CORRUPTED, tag.problem(), tag.getMessage());
        assertTrue(tag.getMessage().contains("bad event tag 99"), tag.getMessage());
    }

    @Test
    void shouldStoreEachKeyOncePerJournal() throws Exception {
        final CoreEvent.Lookup lookup = new CoreEvent.Lookup(1, List.of(new PrefixKey(1, 2), new PrefixKey(3, 4)), 2);
        final ExcerptCodec codec = new ExcerptCodec();
        final KeyDictionary keys = new KeyDictionary();
        final EventBuffer scratch = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final EventBuffer first = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final EventBuffer again = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        codec.entry(0, 0, lookup, keys, scratch, first);
        codec.entry(0, 0, lookup, keys, scratch, again);
        assertEquals(2, keys.size());
        assertTrue(first.length() > 32, "both keys whole the first time: " + first.length());
        assertTrue(again.length() < 10, "then by number: " + again.length());
    }

    @Test
    void shouldRefuseToWriteIntoANonEmptyDirectory() throws Exception {
        final Path dir = temp.resolve("full");
        write(dir, header(), events(1));
        final JournalException e = assertThrows(JournalException.class,
            () -> new JournalWriter(dir, header(), new ManualClock()));
        assertEquals(Problem.WRITE_FAILED, e.problem());
    }

    @Test
    void shouldCrashWhenTheClockGoesBack() throws Exception {
        final ManualClock clock = new ManualClock();
        clock.advance(100);
        try (JournalWriter writer = new JournalWriter(temp.resolve("back"), header(), clock)) {
            writer.emit(new CoreEvent.DrainRequested());
            clock.advance(-1);
            assertThrows(IllegalStateException.class, () -> writer.emit(new CoreEvent.DrainRequested()));
        }
    }

    private static JournalException expect(final Problem problem, final Path dir) {
        final JournalException e = readAll(dir);
        assertEquals(problem, e.problem(), e.getMessage());
        assertTrue(e.getMessage().startsWith(dir.toString() + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
        return e;
    }

    @Test
    void shouldReadFormatFourWithItsSha256DigestAndRefuseADigestOfTheOtherHash() throws Exception {
        final List<CoreEvent> events = events(300);
        final EventDigest sha = new EventDigest(EventDigest.Algorithm.SHA_256);
        final EventDigest xxh3 = new EventDigest(EventDigest.Algorithm.XXH3_128);
        for (int i = 0; i < events.size(); i++) {
            sha.add(10L * i, events.get(i));
            xxh3.add(10L * i, events.get(i));
        }
        final List<byte[]> block = List.of(oneBlock(events));
        final JournalHeader now = header();
        final JournalHeader four = new JournalHeader(4, now.scenario(), now.seed(), now.knobs(), now.configDigest(),
            now.codeVersion(), now.mode());
        try (JournalReader reader = JournalReader.open(RawJournal.write(temp.resolve("v4"), four, block,
            events.size(), sha.finish()))) {
            int i = 0;
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                assertEquals(events.get(i++), entry.event());
            }
            assertEquals(events.size(), i);
            assertEquals(sha.finish(), reader.eventDigest());
        }
        assertEquals(5, ExcerptLayout.FORMAT_VERSION, "this test's 'now' is format 5, the first with XXH3-128");
        try (JournalReader reader = JournalReader.open(RawJournal.write(temp.resolve("v5"), now, block,
            events.size(), xxh3.finish()))) {
            while (reader.next() != null) {
                assertTrue(reader.eventsRead() > 0);
            }
            assertEquals(xxh3.finish(), reader.eventDigest());
        }
        final JournalException shaInFive = readAll(RawJournal.write(temp.resolve("sha-in-5"), now, block,
            events.size(), sha.finish()));
        assertEquals(Problem.CORRUPTED, shaInFive.problem(), shaInFive.getMessage());
        final JournalException xxh3InFour = readAll(RawJournal.write(temp.resolve("xxh3-in-4"), four, block,
            events.size(), xxh3.finish()));
        assertEquals(Problem.CORRUPTED, xxh3InFour.problem(), xxh3InFour.getMessage());
    }

    /** One EVENTS excerpt of {@code events} from sequence 0, event i at 10 i ns. */
    private static byte[] oneBlock(final List<CoreEvent> events) {
        final ExcerptCodec codec = new ExcerptCodec();
        final EventBuffer entries = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final EventBuffer scratch = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        final KeyDictionary keys = new KeyDictionary();
        for (int i = 0; i < events.size(); i++) {
            codec.entry(i == 0 ? 0 : 10L * (i - 1), 10L * i, events.get(i), keys, scratch, entries);
        }
        final EventBuffer block = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        codec.block(0, events.size(), entries, block);
        return block.toByteArray();
    }

    private static JournalException readAll(final Path dir) {
        return assertThrows(JournalException.class, () -> JournalReader.verify(dir));
    }

    /** The first bytes of the EVENTS excerpt whose first event is {@code sequence} (blocks of BLOCK_EVENTS). */
    private static byte[] blockStart(final int sequence) {
        final EventBuffer b = new EventBuffer(256);
        b.putByte(ExcerptLayout.KIND_EVENTS);
        b.putVarLong(sequence);
        b.putVarLong(BLOCK_EVENTS);
        return b.toByteArray();
    }

    private static long find(final Path dir, final byte[] needle) throws IOException {
        final byte[] head = new byte[4 << 20];
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(ExcerptLayout.DATA_FILE).toFile(), "r")) {
            file.readFully(head);
        }
        outer : for (int i = 0; i + needle.length <= head.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (head[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("pattern not found in the queue file");
    }

    private static void zero(final Path dir, final long from, final int length) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(ExcerptLayout.DATA_FILE).toFile(), "rw")) {
            file.seek(from);
            file.write(new byte[length]);
        }
    }

    private static void flip(final Path dir, final long at) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(ExcerptLayout.DATA_FILE).toFile(), "rw")) {
            file.seek(at);
            final int b = file.read();
            file.seek(at);
            file.write(b ^ 0x10);
        }
    }

    private static void assertSameFiles(final Path a, final Path b) throws IOException {
        final List<String> names = new ArrayList<>();
        try (var files = Files.list(a)) {
            files.forEach(f -> names.add(f.getFileName().toString()));
        }
        assertEquals(3, names.size(), names.toString());
        for (final String name : names) {
            assertEquals(-1L, Files.mismatch(a.resolve(name), b.resolve(name)), name + " differs");
        }
    }
}
