package dev.kvtier.core.port;

/**
 * Runs work at a time: the simulator's event loop on its virtual clock, or the real I/O loop on the wall clock.
 * Work scheduled for the same time runs in the order it was scheduled. Drivers (workloads, fault injectors) use this
 * port; the core itself does not schedule anything.
 */
public interface Scheduler extends Clock {
    /** Runs {@code task} on the loop's thread at {@code timeNs} (or as soon as possible after, if in the past). */
    void at(long timeNs, Runnable task);

    /** Runs {@code task} on the loop's thread after the current step, at the current time. */
    default void post(final Runnable task) {
        at(nowNs(), task);
    }
}
