package dev.kvtier.core.port;

/**
 * Monotonic time in nanoseconds: virtual time in the simulator, the wall clock's monotonic time in real I/O.
 * The core's state transitions do not read it; runners and drivers do, once per step, and pass the value down
 * (STYLE rule 4).
 */
@FunctionalInterface
public interface Clock {
    /** Now, in nanoseconds, on a monotonic clock of unspecified origin. */
    long nowNs();
}
