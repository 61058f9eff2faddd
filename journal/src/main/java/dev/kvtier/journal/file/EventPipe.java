package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Hands events, each with its time, from the thread that emits them to a consumer on a thread of its own, in the order
 * they were put: a journal is encoded, hashed and appended beside the run instead of inside its event loop. Events go
 * over in batches of {@link #BATCH_EVENTS} (one hand-over and one wake-up a batch, not an event), and at most
 * {@link #BATCHES} batches exist: when the consumer falls that far behind, {@link #put} waits for it, so memory stays
 * bounded. Events are records, so the consumer reads exactly what was emitted however late it runs.
 *
 * <p>A consumer that throws fails the pipe: the events after it are dropped, and the next hand-over and
 * {@link #finish} throw an {@link IllegalStateException} with the consumer's exception as its cause. The consumer
 * thread is a daemon: a process that dies without {@link #finish} leaves what the consumer had done, as a crash does.
 * One producer thread; not for use by two.
 */
final class EventPipe {
    /** Events handed over at once. */
    static final int BATCH_EVENTS = 1024;
    /** Batches in all: the one being filled, and those waiting for or in the consumer. */
    static final int BATCHES = 8;

    /** What the consumer thread does with each event, in order. */
    @FunctionalInterface
    interface Consumer {
        void accept(long timeNs, CoreEvent event);
    }

    private static final class Batch {
        final long[] times;
        final CoreEvent[] events;
        int count;

        Batch(final int capacity) {
            times = new long[capacity];
            events = new CoreEvent[capacity];
        }
    }

    /** Put after the last batch: the consumer thread ends when it takes it. */
    private static final Batch END = new Batch(0);

    private final Consumer consumer;
    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES + 1);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final Thread thread;
    private Batch filling = new Batch(BATCH_EVENTS);
    private volatile Throwable failed;
    private boolean finished;

    /** Starts the consumer thread, named {@code name}. */
    EventPipe(final String name, final Consumer consumer) {
        this.consumer = consumer;
        for (int i = 1; i < BATCHES; i++) {
            free.add(new Batch(BATCH_EVENTS));
        }
        thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::drain);
        thread.start();
    }

    /** Hands {@code event} at {@code timeNs} over; waits while the consumer is {@link #BATCHES} batches behind. */
    void put(final long timeNs, final CoreEvent event) {
        if (finished) {
            throw new IllegalStateException("the pipe is finished");
        }
        final Batch b = filling;
        b.times[b.count] = timeNs;
        b.events[b.count] = event;
        b.count++;
        if (b.count == BATCH_EVENTS) {
            checkFailed();
            hand(b);
            filling = take(free);
        }
    }

    /**
     * Hands over what is left, waits until the consumer has taken every event and its thread has ended, and throws when
     * the consumer failed. What the consumer wrote is visible to the caller afterwards. Later calls return at once.
     */
    void finish() {
        if (finished) {
            checkFailed();
            return;
        }
        finished = true;
        if (filling.count > 0) {
            hand(filling);
        }
        filling = null;
        hand(END);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        checkFailed();
    }

    private void checkFailed() {
        final Throwable t = failed;
        if (t != null) {
            throw new IllegalStateException("the journal writer's thread failed: " + t, t);
        }
    }

    /** The consumer thread: every batch in order, until {@link #END}; after a failure, batches are only recycled. */
    private void drain() {
        while (true) {
            final Batch b = take(full);
            if (b == END) {
                return;
            }
            if (failed == null) {
                try {
                    for (int i = 0; i < b.count; i++) {
                        consumer.accept(b.times[i], b.events[i]);
                    }
                } catch (final RuntimeException | Error e) {
                    failed = e;
                }
            }
            Arrays.fill(b.events, 0, b.count, null);
            b.count = 0;
            if (!free.offer(b)) {
                throw new IllegalStateException("more batches than " + BATCHES);
            }
        }
    }

    private void hand(final Batch b) {
        boolean interrupted = false;
        while (true) {
            try {
                full.put(b);
                break;
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Takes from {@code queue}, waiting as long as it takes; an interrupt is kept for later, not lost (also
     * {@link ReadAhead}'s).
     */
    static <T> T take(final BlockingQueue<T> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (final InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
