package dev.kvtier.sim.loop;

import dev.kvtier.core.port.Clock;
import java.util.Objects;

/**
 * The engine's worker in virtual time: work done on the client side (copying a finished request's KV into staging)
 * takes the engine's time, one piece after another. The engine's clock is the loop's time, or the end of the
 * worker's charged work if later: a step that stages a request goes on only once the copy is done.
 *
 * <p>The worker is either the engine's own ({@link #own}: beside the server, as an inference engine in a process of
 * its own) or the server's one thread ({@link #onServerThread}: as in kvtier's real mode, where the engine's steps
 * and the server's inputs are tasks of one loop thread). On the server's thread a piece of work starts once the
 * server has finished what it was doing, the server's next input waits for the piece to end, and the engine's clock
 * does not run ahead of the server's work (a step of the engine starts when the thread is free).
 */
public final class EngineWorker implements Clock {
    private final EventLoop loop;
    private final ServerThread server;
    private long busyUntilNs;
    private long busyTotalNs;

    private EngineWorker(final EventLoop loop, final ServerThread server) {
        this.loop = loop;
        this.server = server;
    }

    /** The engine's own worker, beside the server. */
    public static EngineWorker own(final EventLoop loop) {
        return new EngineWorker(loop, null);
    }

    /** A worker that is the server's one thread: engine work and server inputs run one after another. */
    public static EngineWorker onServerThread(final EventLoop loop, final ServerThread server) {
        return new EngineWorker(loop, Objects.requireNonNull(server, "server"));
    }

    /**
     * Charges {@code ns} of the worker's work, starting now or when its earlier work ends (and, on the server's
     * thread, when the server's work ends).
     */
    public void charge(final long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative charge " + ns);
        }
        long startNs = Math.max(busyUntilNs, loop.nowNs());
        if (server != null) {
            startNs = Math.max(startNs, server.freeAtNs());
        }
        busyUntilNs = startNs + ns;
        busyTotalNs += ns;
        if (server != null) {
            server.holdUntil(busyUntilNs);
        }
    }

    /**
     * The engine's time: the loop's, or the end of the worker's work if later; on the server's thread, also no
     * earlier than the end of the server's work (an engine task runs once the thread is free).
     */
    @Override
    public long nowNs() {
        final long ns = Math.max(loop.nowNs(), busyUntilNs);
        return server == null ? ns : Math.max(ns, server.freeAtNs());
    }

    /** A simulated power loss: the worker's work in progress vanishes with the engine. */
    public void crash() {
        busyUntilNs = Math.min(busyUntilNs, loop.nowNs());
    }

    /** Whether the worker is the server's thread. */
    public boolean onServerThread() {
        return server != null;
    }

    /** Total worker time charged. */
    public long busyTotalNs() {
        return busyTotalNs;
    }
}
