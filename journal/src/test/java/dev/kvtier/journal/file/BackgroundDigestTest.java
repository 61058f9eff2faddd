package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.journal.codec.EventDigest;
import org.junit.jupiter.api.Test;

class BackgroundDigestTest {
    private static long digestThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("kvtier event digest") && t.isAlive()).count();
    }

    @Test
    void shouldGiveTheDigestAndCountOfAnInlineDigest() {
        final long[] now = {0};
        final EventDigest inline = new EventDigest();
        final BackgroundDigest beside = new BackgroundDigest();
        final EventSink a = inline.sink(() -> now[0]);
        final EventSink b = beside.sink(() -> now[0]);
        final int n = EventPipe.BATCH_EVENTS * 5 + 3;
        for (int i = 0; i < n; i++) {
            now[0] += i % 7;
            final CoreEvent e = i % 2 == 0 ? new CoreEvent.RingWrapped(i, 3) : new CoreEvent.SliceFreed(i, 64L * i);
            a.emit(e);
            b.emit(e);
        }
        assertEquals(n, beside.eventCount());
        assertEquals(inline.finish(), beside.finish());
        assertEquals(inline.finish(), beside.finish(), "the same value again");
    }

    @Test
    void shouldEndItsThreadWhenGivenUp() {
        final long before = digestThreads();
        final BackgroundDigest beside = new BackgroundDigest();
        beside.sink(() -> 0).emit(new CoreEvent.RingWrapped(1, 1));
        assertEquals(before + 1, digestThreads(), "a thread while the run goes on");
        beside.abandon();
        assertEquals(before, digestThreads(), "none once given up");
    }
}
