package dev.kvtier.journal.file;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a journal's entries on a thread of its own, ahead of the thread that takes them: the excerpts' checksums, the
 * decoding and the event digest run beside a replay instead of inside it. Entries come over in batches of
 * {@link #BATCH_ENTRIES}, at most {@link #BATCHES} batches exist (the reading thread waits when the taker is that far
 * behind), and the taker sees exactly what reading in its own thread would have given it: the same entries in the same
 * order, then {@code null} at the end, or the same {@link JournalException} (or unchecked exception) after the same
 * entries. One taker thread; not for use by two.
 */
final class ReadAhead {
    /** Entries handed over at once. */
    static final int BATCH_ENTRIES = 512;
    /** Batches in all: the one being taken from, and those filled or being filled. */
    static final int BATCHES = 8;

    /** What the reading thread calls for the next entry: {@code null} at the end. */
    @FunctionalInterface
    interface Source {
        JournalEntry next() throws JournalException;
    }

    private static final class Batch {
        final JournalEntry[] entries = new JournalEntry[BATCH_ENTRIES];
        int count;
        /** The source ended after these entries. */
        boolean end;
        /** What the source threw after these entries, or null. */
        Throwable failure;
    }

    private final Source source;
    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final Thread thread;
    private volatile boolean stopping;
    private Batch taking;
    private int taken;

    /** Starts reading from {@code source} on a thread named {@code name}. */
    ReadAhead(final String name, final Source source) {
        this.source = source;
        for (int i = 0; i < BATCHES; i++) {
            free.add(new Batch());
        }
        thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::fill);
        thread.start();
    }

    /** The next entry, {@code null} at the end; throws what reading threw, after the entries before it. */
    JournalEntry next() throws JournalException {
        while (true) {
            if (taking != null && taken < taking.count) {
                return taking.entries[taken++];
            }
            if (taking != null) {
                if (taking.failure != null) {
                    throw rethrow(taking.failure);
                }
                if (taking.end) {
                    return null;
                }
                recycle(taking);
            }
            taking = EventPipe.take(full);
            taken = 0;
        }
    }

    /** Stops the reading thread (reading need not have ended) and waits for it; the source is idle afterwards. */
    void stop() {
        stopping = true;
        boolean interrupted = false;
        while (thread.isAlive()) {
            // Make room, so that a reading thread waiting to hand a batch over sees the stop.
            for (Batch b = full.poll(); b != null; b = full.poll()) {
                recycle(b);
            }
            try {
                thread.join(1);
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The reading thread: fills batches until the source ends or fails, or {@link #stop}. */
    private void fill() {
        while (!stopping) {
            final Batch b = EventPipe.take(free);
            if (stopping) {
                return;
            }
            try {
                while (b.count < BATCH_ENTRIES) {
                    final JournalEntry e = source.next();
                    if (e == null) {
                        b.end = true;
                        break;
                    }
                    b.entries[b.count++] = e;
                }
            } catch (final JournalException | RuntimeException | Error e) {
                b.failure = e;
            }
            hand(b);
            if (b.end || b.failure != null) {
                return;
            }
        }
    }

    private void hand(final Batch b) {
        while (!stopping) {
            try {
                full.put(b);
                return;
            } catch (final InterruptedException e) {
                // only stop() ends the reading thread
            }
        }
    }

    private void recycle(final Batch b) {
        Arrays.fill(b.entries, 0, b.count, null);
        b.count = 0;
        b.end = false;
        b.failure = null;
        if (!free.offer(b)) {
            throw new IllegalStateException("more batches than " + BATCHES);
        }
    }

    /** What the reading thread threw, for the taker: a JournalException to throw, or it throws the unchecked one. */
    private static JournalException rethrow(final Throwable e) {
        if (e instanceof JournalException j) {
            return j;
        }
        if (e instanceof Error r) {
            throw r;
        }
        throw (RuntimeException) e;
    }
}
