package dev.kvtier.sim.loop;

import dev.kvtier.core.port.Clock;

/**
 * The engine's worker in virtual time: work done on the client side (copying a finished request's KV into staging)
 * runs off the server thread but takes the engine's time, one piece after another. The engine's clock is the loop's
 * time, or the end of the worker's charged work if later: a step that stages a request goes on only once the copy
 * is done.
 */
public final class EngineWorker implements Clock {
    private final EventLoop loop;
    private long busyUntilNs;
    private long busyTotalNs;

    public EngineWorker(final EventLoop loop) {
        this.loop = loop;
    }

    /** Charges {@code ns} of the worker's work, starting now or when its earlier work ends. */
    public void charge(final long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative charge " + ns);
        }
        busyUntilNs = Math.max(busyUntilNs, loop.nowNs()) + ns;
        busyTotalNs += ns;
    }

    @Override
    public long nowNs() {
        return Math.max(loop.nowNs(), busyUntilNs);
    }

    /** A simulated power loss: the worker's work in progress vanishes with the engine. */
    public void crash() {
        busyUntilNs = Math.min(busyUntilNs, loop.nowNs());
    }

    /** Total worker time charged. */
    public long busyTotalNs() {
        return busyTotalNs;
    }
}
