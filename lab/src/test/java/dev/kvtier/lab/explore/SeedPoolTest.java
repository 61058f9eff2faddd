package dev.kvtier.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The pool under an exploration's seeds ({@code explore --threads N}): results in seed order whatever order the
 * workers finish in, at most N runs live and a bounded window ahead, nothing new after a stop, and what a task throws
 * thrown on the caller's thread. Tasks wait on latches (with a timeout, so a broken pool fails instead of hanging);
 * nothing sleeps.
 */
class SeedPoolTest {
    private static final List<Long> SEEDS = seeds(1, 40);

    @Test
    void shouldHandResultsBackInSeedOrderWhenALaterSeedFinishesFirst() {
        final CountDownLatch fourthRan = new CountDownLatch(1);
        final List<Long> order = new ArrayList<>();
        try (SeedPool<Long> pool = new SeedPool<>(SEEDS, 3, seed -> {
            if (seed == 1) {
                await(fourthRan); // seed 1 ends only after seeds 2, 3 and 4 ran on the other threads
            } else if (seed == 4) {
                fourthRan.countDown();
            }
            return seed * 10;
        })) {
            while (pool.hasNext()) {
                order.add(pool.next() / 10);
            }
        }
        assertEquals(SEEDS, order);
    }

    @Test
    void shouldRunAtMostThreadsSeedsAtOnceAndAtMostAWindowAhead() {
        final int threads = 3;
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostRunning = new AtomicInteger();
        final AtomicLong highestStarted = new AtomicLong();
        try (SeedPool<Long> pool = new SeedPool<>(SEEDS, threads, seed -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            highestStarted.accumulateAndGet(seed, Math::max);
            running.decrementAndGet();
            return seed;
        })) {
            long taken = 0;
            while (pool.hasNext()) {
                taken = pool.next();
                assertTrue(highestStarted.get() <= taken + threads * SeedPool.AHEAD_PER_THREAD,
                    "seed " + highestStarted.get() + " started while the caller had taken " + taken);
                // A run on the caller's thread (a failing seed's journal) counts as one of the N.
                final int workers = pool.asOneOfTheRuns(running::get);
                assertTrue(workers <= threads - 1, workers + " workers ran beside the caller's run");
            }
            assertEquals(SEEDS.getLast(), taken);
        }
        assertTrue(mostRunning.get() <= threads, mostRunning.get() + " runs at once");
    }

    @Test
    void shouldTakeNoNewSeedAfterAStop() {
        final int threads = 2;
        final Set<Long> ran = ConcurrentHashMap.newKeySet();
        final CountDownLatch stopped = new CountDownLatch(1);
        final SeedPool<Long> pool = new SeedPool<>(SEEDS, threads, seed -> {
            ran.add(seed);
            if (seed > 2) {
                await(stopped); // seeds 3 and 4 hold both workers; 5 and 6 wait in the queue
            }
            return seed;
        });
        try (pool) {
            assertEquals(1L, pool.next());
            assertEquals(2L, pool.next());
            pool.stop();
            stopped.countDown();
            assertFalse(pool.hasNext());
            assertThrows(IllegalStateException.class, pool::next);
        }
        final long highest = ran.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(highest <= 2 + threads, "seed " + highest + " ran after the stop at 2 (queued seeds must not)");
    }

    @Test
    void shouldThrowAWorkersErrorOnTheCallerAtItsSeed() {
        final StackOverflowError error = new StackOverflowError("seed 5");
        final List<Long> before = new ArrayList<>();
        try (SeedPool<Long> pool = new SeedPool<>(SEEDS, 3, seed -> {
            if (seed == 5) {
                throw error;
            }
            return seed;
        })) {
            final StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> {
                while (pool.hasNext()) {
                    before.add(pool.next());
                }
            });
            assertSame(error, thrown);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L), before);
        final IllegalStateException bug = new IllegalStateException("seed 2");
        try (SeedPool<Long> pool = new SeedPool<>(SEEDS, 2, seed -> {
            if (seed == 2) {
                throw bug;
            }
            return seed;
        })) {
            assertEquals(1L, pool.next());
            assertSame(bug, assertThrows(IllegalStateException.class, pool::next));
        }
    }

    @Test
    void shouldRunOnTheCallersThreadWithOneThreadAndEndItsWorkersOnClose() throws InterruptedException {
        final Thread caller = Thread.currentThread();
        try (SeedPool<Thread> pool = new SeedPool<>(SEEDS, 1, seed -> Thread.currentThread())) {
            assertSame(caller, pool.next());
        }
        final Set<Thread> workers = ConcurrentHashMap.newKeySet();
        try (SeedPool<Thread> pool = new SeedPool<>(SEEDS, 2, seed -> Thread.currentThread())) {
            while (pool.hasNext()) {
                workers.add(pool.next());
            }
        }
        assertFalse(workers.contains(caller));
        assertTrue(workers.size() <= 2, workers.toString());
        for (final Thread t : workers) {
            assertTrue(t.getName().startsWith("kvtier-explore-") && t.isDaemon(), t.toString());
            t.join(TimeUnit.SECONDS.toMillis(30)); // close() waited for the pool; the thread's last return may lag
            assertFalse(t.isAlive(), t + " outlived the pool");
        }
    }

    @Test
    void shouldRejectThreadCountsOutsideOneToSixtyFour() {
        for (final int bad : new int[] {0, -1, SeedPool.THREADS_MAX + 1}) {
            assertThrows(IllegalArgumentException.class, () -> new SeedPool<>(SEEDS, bad, seed -> seed).close(),
                "threads " + bad);
        }
    }

    private static List<Long> seeds(final long from, final int count) {
        final List<Long> s = new ArrayList<>();
        for (long seed = from; seed < from + count; seed++) {
            s.add(seed);
        }
        return List.copyOf(s);
    }

    private static void await(final CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("a latch was never released (30 s)");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
