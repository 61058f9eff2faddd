package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EventPipeTest {
    private static CoreEvent event(final int i) {
        return new CoreEvent.RingWrapped(i, 1);
    }

    @Test
    void shouldDeliverEveryEventWithItsTimeInOrderAcrossBatches() {
        final int n = EventPipe.BATCH_EVENTS * (EventPipe.BATCHES * 3) + 17;
        final List<CoreEvent> seen = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        final String[] thread = new String[1];
        final EventPipe pipe = new EventPipe("test pipe", (t, e) -> {
            thread[0] = Thread.currentThread().getName();
            seen.add(e);
            times.add(t);
        });
        for (int i = 0; i < n; i++) {
            pipe.put(1000L + i, event(i));
        }
        pipe.finish();
        assertEquals(n, seen.size(), "every event, the last partial batch too");
        for (int i = 0; i < n; i++) {
            assertEquals(event(i), seen.get(i), "event " + i);
            assertEquals(1000L + i, times.get(i), "time " + i);
        }
        assertEquals("test pipe", thread[0], "on the pipe's own thread");
        pipe.finish();
        assertThrows(IllegalStateException.class, () -> pipe.put(0, event(0)), "no event after finish");
    }

    @Test
    void shouldMakeTheProducerWaitWhenTheConsumerIsAllBatchesBehind() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final List<CoreEvent> seen = new ArrayList<>();
        final EventPipe pipe = new EventPipe("slow pipe", (t, e) -> {
            awaitQuietly(release);
            seen.add(e);
        });
        final int fits = EventPipe.BATCH_EVENTS * EventPipe.BATCHES;
        final Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < fits + 1; i++) {
                pipe.put(i, event(i));
            }
        });
        producer.join(300);
        assertTrue(producer.isAlive(), "the producer waits: every batch is full or held by the consumer");
        release.countDown();
        producer.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(!producer.isAlive(), "the producer goes on once the consumer catches up");
        pipe.finish();
        assertEquals(fits + 1, seen.size());
    }

    @Test
    void shouldReportAConsumerFailureAtTheNextHandOverAndAtFinish() {
        final List<CoreEvent> seen = new ArrayList<>();
        final EventPipe pipe = new EventPipe("failing pipe", (t, e) -> {
            if (t == 5) {
                throw new IllegalArgumentException("event 5 does not encode");
            }
            seen.add(e);
        });
        final IllegalStateException failed = assertThrows(IllegalStateException.class, () -> {
            for (int i = 0; i < EventPipe.BATCH_EVENTS * (EventPipe.BATCHES + 2); i++) {
                pipe.put(i, event(i));
            }
        });
        assertInstanceOf(IllegalArgumentException.class, failed.getCause());
        final IllegalStateException atFinish = assertThrows(IllegalStateException.class, pipe::finish);
        assertTrue(atFinish.getMessage().contains("event 5 does not encode"), atFinish.getMessage());
        assertEquals(5, seen.size(), "the events before the failure, none after");
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
