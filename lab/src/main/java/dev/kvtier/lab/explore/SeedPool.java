package dev.kvtier.lab.explore;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Runs one task per seed on {@code threads} worker threads of a fixed pool it owns, and hands the results to its one
 * caller in seed order ({@link #next}), so whatever the caller does with them (the tally, the printed lines, a failing
 * seed's journal) happens in the order one thread gives. Workers run at most {@link #AHEAD_PER_THREAD} seeds per
 * thread ahead of the seed the caller takes next: at most {@code threads} tasks (seed runs, each holding its run's
 * memory) are live at once, a run the caller makes itself through {@link #asOneOfTheRuns} counting as one of them,
 * and the results waiting for the caller are the rest of that window. {@link #stop} lets
 * workers take no new seed and drops the results of seeds the caller did not take; {@link #close} also waits for the
 * workers and ends the pool. An exception or error a task throws is thrown by {@link #next} for that seed, on the
 * caller's thread (tasks are expected to turn what a seed may throw into a result; what they let through stops the
 * exploration). With one thread there is no pool: {@link #next} runs the seed on the caller's thread.
 *
 * @param <R> what a seed's task gives
 */
final class SeedPool<R> implements AutoCloseable {
    /** Most worker threads one exploration takes. */
    static final int THREADS_MAX = 64;
    /** Seeds submitted per thread, the one the caller waits for included: workers stay busy behind a slow seed. */
    static final int AHEAD_PER_THREAD = 2;

    private final List<Long> seeds;
    private final int threads;
    private final LongFunction<R> task;
    private final ExecutorService pool;
    private final Semaphore live;
    private final ArrayDeque<Future<R>> ahead = new ArrayDeque<>();
    private int submitted;
    private int taken;
    private boolean stopped;

    /** A pool running {@code task} for every seed of {@code seeds} on {@code threads} threads ([1, 64]). */
    SeedPool(final List<Long> seeds, final int threads, final LongFunction<R> task) {
        if (threads < 1 || threads > THREADS_MAX) {
            throw new IllegalArgumentException("threads must be in [1, " + THREADS_MAX + "], got " + threads);
        }
        this.seeds = List.copyOf(seeds);
        this.threads = threads;
        this.task = task;
        this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, workers());
        this.live = new Semaphore(threads);
    }

    /** Whether a seed is left for {@link #next}: not all taken, not stopped. */
    boolean hasNext() {
        return !stopped && taken < seeds.size();
    }

    /** The next seed's result, in seed order; throws what its task threw. */
    R next() {
        if (!hasNext()) {
            throw new IllegalStateException("no seed left: " + taken + " of " + seeds.size() + " taken, stopped "
                + stopped);
        }
        if (pool == null) {
            return task.apply(seeds.get(taken++));
        }
        fill();
        final Future<R> f = ahead.removeFirst();
        taken++;
        final R r = await(f);
        fill();
        return r;
    }

    /**
     * Runs {@code work} on the caller's thread as one of the live runs (a failing seed's re-run with a journal): it
     * first waits for a worker's run to end when every thread is running one, so at most {@code threads} runs are
     * live at once.
     */
    <T> T asOneOfTheRuns(final Supplier<T> work) {
        live.acquireUninterruptibly();
        try {
            return work.get();
        } finally {
            live.release();
        }
    }

    /** Workers take no new seed; the results of seeds not taken yet are dropped. */
    void stop() {
        stopped = true;
        for (final Future<R> f : ahead) {
            f.cancel(false);
        }
        ahead.clear();
        if (pool != null) {
            pool.shutdown();
        }
    }

    /** Stops, waits for the seeds the workers are running, and ends the pool. */
    @Override
    public void close() {
        stop();
        if (pool == null) {
            return;
        }
        try {
            // A seed runs for seconds at most; wait for it however long it takes: its memory is live until it ends.
            boolean ended = false;
            while (!ended) {
                ended = pool.awaitTermination(1, TimeUnit.MINUTES);
            }
        } catch (final InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void fill() {
        while (!stopped && submitted < seeds.size() && ahead.size() < threads * AHEAD_PER_THREAD) {
            final long seed = seeds.get(submitted++);
            ahead.addLast(pool.submit(() -> asOneOfTheRuns(() -> task.apply(seed))));
        }
    }

    private static <R> R await(final Future<R> f) {
        try {
            return f.get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a seed's run", e);
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof final Error error) {
                throw error;
            }
            if (e.getCause() instanceof final RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Daemon threads named kvtier-explore-1, -2, ...: a pool left behind never keeps the JVM from exiting. */
    private static ThreadFactory workers() {
        final AtomicInteger n = new AtomicInteger();
        return r -> {
            final Thread t = new Thread(r, "kvtier-explore-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
