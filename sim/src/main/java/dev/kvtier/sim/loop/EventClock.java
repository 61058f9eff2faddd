package dev.kvtier.sim.loop;

import dev.kvtier.core.port.Clock;

/**
 * The clock that stamps every event of a simulated run: the server thread's time, never going back. A server input
 * runs whole when its loop event comes, so its events are stamped up to the end of its charged work; work that the
 * loop runs after it but at an earlier virtual time (the engine's and the client's, in parallel with the server) is
 * stamped no earlier than the last event. The journal and the digest need stamps in sequence order; only the stamps of
 * engine-side events that overlap server work are moved, by at most that work.
 */
public final class EventClock implements Clock {
    private final Clock server;
    private long lastNs = Long.MIN_VALUE;

    public EventClock(final Clock server) {
        this.server = server;
    }

    @Override
    public long nowNs() {
        lastNs = Math.max(lastNs, server.nowNs());
        return lastNs;
    }
}
