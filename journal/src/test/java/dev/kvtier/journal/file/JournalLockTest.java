package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.journal.file.JournalException.Problem;
import dev.kvtier.journal.testkit.ManualClock;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal directory belongs to one writer at a time: a second writer is refused at once with the holder's line and
 * writes nothing; the directory must be absent or empty; a writer that gives up removes only what it made; a flipped
 * byte in a queue file's header is one line (exit 2 in the CLI), not Chronicle's stack trace.
 */
class JournalLockTest {
    @TempDir
    Path temp;

    private static JournalWriter writer(final Path dir, final String holder) throws JournalException {
        final ManualClock clock = new ManualClock();
        return new JournalWriter(dir, JournalFileTest.header(), clock, Long.MAX_VALUE, holder);
    }

    private static List<String> names(final Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldRefuseASecondWriterAtOnceNamingTheFirst() throws Exception {
        final Path dir = temp.resolve("j");
        final JournalWriter first = writer(dir, "pid 1 (kvtier run a --journal j)");
        final List<String> before = names(dir);
        final JournalException second = assertThrows(JournalException.class, () -> writer(dir, "pid 2"));
        assertEquals(Problem.IN_USE, second.problem());
        assertTrue(second.getMessage().contains("pid 1 (kvtier run a --journal j)"), second.getMessage());
        assertEquals(before, names(dir), "the second writer touched nothing");
        first.close();
        assertFalse(names(dir).contains(JournalLock.FILE_NAME), "the lock file goes with its writer");
        JournalReader.verify(dir);
        final JournalException after = assertThrows(JournalException.class, () -> writer(dir, "pid 3"));
        assertTrue(after.getMessage().contains("not empty"), after.getMessage());
        JournalReader.verify(dir);
    }

    @Test
    void shouldRefuseADirectoryThatHoldsAnythingAndLeaveIt() throws Exception {
        final Path dir = Files.createDirectories(temp.resolve("busy"));
        Files.writeString(dir.resolve("notes.txt"), "mine");
        final JournalException e = assertThrows(JournalException.class, () -> writer(dir, "pid 1"));
        assertTrue(e.getMessage().contains("notes.txt"), e.getMessage());
        assertEquals(List.of("notes.txt"), names(dir));
        final Path file = Files.writeString(temp.resolve("file"), "x");
        assertThrows(JournalException.class, () -> writer(file, "pid 1"));
        assertEquals("x", Files.readString(file));
    }

    @Test
    void shouldTakeADirectoryThatAKilledWriterLeftOnlyItsLockFileIn() throws Exception {
        final Path dir = Files.createDirectories(temp.resolve("stale"));
        Files.writeString(dir.resolve(JournalLock.FILE_NAME), "pid 99 (gone)\n");
        writer(dir, "pid 1").close();
        JournalReader.verify(dir);
    }

    @Test
    void shouldRemoveOnDiscardWhatItMadeAndTheDirectoryWhenItMadeIt() throws Exception {
        final Path made = temp.resolve("made");
        writer(made, "pid 1").discard();
        assertFalse(Files.exists(made));
        final Path given = Files.createDirectories(temp.resolve("given"));
        writer(given, "pid 1").discard();
        assertTrue(Files.isDirectory(given));
        assertEquals(List.of(), names(given));
    }

    @Test
    void shouldReportAFlippedByteInTheQueueFilesHeaderAsOneLine() throws Exception {
        final Path dir = temp.resolve("flip");
        JournalFileTest.write(dir, JournalFileTest.header(), JournalFileTest.events(50));
        final Path cq4;
        try (Stream<Path> s = Files.list(dir)) {
            cq4 = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        for (final int offset : new int[] {5, 16, 40, 80}) {
            try (RandomAccessFile f = new RandomAccessFile(cq4.toFile(), "rw")) {
                f.seek(offset);
                final int b = f.read();
                f.seek(offset);
                f.write(b ^ 0xFF);
                final JournalException e = assertThrows(JournalException.class, () -> JournalReader.verify(dir),
                    "offset " + offset);
                assertEquals(Problem.CORRUPTED, e.problem(), e.getMessage());
                assertEquals(1, e.getMessage().lines().count(), e.getMessage());
                assertTrue(e.getMessage().length() < 400, e.getMessage());
                f.seek(offset);
                f.write(b);
            }
        }
        JournalReader.verify(dir);
    }
}
