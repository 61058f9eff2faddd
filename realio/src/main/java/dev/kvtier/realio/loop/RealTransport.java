package dev.kvtier.realio.loop;

import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.port.Scheduler;

/**
 * Calls and replies between the engine (and the client) and the store server in a real run. Everything runs on the
 * loop's one thread, which is the server's thread too: a call is posted to the loop and runs after the work already
 * there, as it would queue on a server thread; a reply is posted back. The time spent inside server inputs (calls
 * and device completions, {@link #serve}) is measured on the wall clock: the server thread's busy time.
 */
public final class RealTransport implements ServerTransport {
    private final Scheduler loop;
    private long busyNs;

    public RealTransport(final Scheduler loop) {
        this.loop = loop;
    }

    @Override
    public void toServer(final long callId, final Runnable input) {
        loop.post(() -> serve(input));
    }

    @Override
    public void toClient(final long callId, final Runnable reply) {
        loop.post(reply);
    }

    /** Runs one server input and adds its wall time to the server's busy time. */
    public void serve(final Runnable input) {
        final long t0 = System.nanoTime();
        try {
            input.run();
        } finally {
            busyNs += System.nanoTime() - t0;
        }
    }

    /** Wall time spent inside server inputs so far. */
    public long busyNs() {
        return busyNs;
    }
}
