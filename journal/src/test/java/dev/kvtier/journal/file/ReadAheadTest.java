package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalException.Problem;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadAheadTest {
    private static JournalEntry entry(final long i) {
        return new JournalEntry(i, 10 * i, new CoreEvent.RingWrapped((int) i, 1));
    }

    @Test
    void shouldGiveEveryEntryInOrderThenNullForGood() throws Exception {
        final long n = (long) ReadAhead.BATCH_ENTRIES * ReadAhead.BATCHES * 3 + 5;
        final long[] next = {0};
        final ReadAhead ahead = new ReadAhead("test", () -> next[0] < n ? entry(next[0]++) : null);
        for (long i = 0; i < n; i++) {
            assertEquals(entry(i), ahead.next(), "entry " + i);
        }
        assertNull(ahead.next());
        assertNull(ahead.next(), "the end stays the end");
        ahead.stop();
    }

    @Test
    void shouldThrowWhatReadingThrewAfterTheSameEntries() throws Exception {
        final JournalException bad = new JournalException(Problem.CORRUPTED, Path.of("j"), "checksum mismatch");
        final long[] next = {0};
        final ReadAhead ahead = new ReadAhead("test", () -> {
            if (next[0] == 700) {
                throw bad;
            }
            return entry(next[0]++);
        });
        for (long i = 0; i < 700; i++) {
            assertEquals(entry(i), ahead.next(), "entry " + i);
        }
        assertSame(bad, assertThrows(JournalException.class, ahead::next));
        ahead.stop();
    }

    @Test
    void shouldStopAReaderThatIsAheadAndLeaveTheSourceIdle() throws Exception {
        final AtomicLong reads = new AtomicLong();
        final ReadAhead ahead = new ReadAhead("test", () -> entry(reads.getAndIncrement()));
        assertEquals(entry(0), ahead.next());
        ahead.stop();
        final long after = reads.get();
        assertEquals(after, reads.get(), "nothing reads after stop returned");
        assertEquals(0, after % ReadAhead.BATCH_ENTRIES, "the reader stopped between batches: " + after);
    }
}
