package dev.kvtier.sim.loop;

import dev.kvtier.core.client.ServerTransport;

/**
 * The simulated RPC between the engine's connector (and the client) and the store server: a call reaches the server
 * thread after a one-way trip and queues behind whatever it is doing; a reply leaves once the server's work for it
 * (and, for a host that copies beside its thread, the copies it made) is done, and arrives a one-way trip later. A
 * call leaves the client at the client's time: after the client-side work charged to the engine's worker (a batch is
 * sent once it is staged).
 */
public final class SimTransport implements ServerTransport {
    private final EventLoop loop;
    private final ServerThread server;
    private final EngineWorker client;
    private final long oneWayNs;

    /**
     * @param oneWayNs one way of a call, in virtual time (half the engine's RPC round trip)
     */
    public SimTransport(final EventLoop loop, final ServerThread server, final EngineWorker client,
                        final long oneWayNs) {
        if (oneWayNs < 0) {
            throw new IllegalArgumentException("oneWayNs must not be negative, got " + oneWayNs);
        }
        this.loop = loop;
        this.server = server;
        this.client = client;
        this.oneWayNs = oneWayNs;
    }

    @Override
    public void toServer(final long callId, final Runnable input) {
        final long sentNs = server.inStep() ? server.nowNs() : client.nowNs();
        loop.at(sentNs + oneWayNs, () -> server.submit(input));
    }

    @Override
    public void toClient(final long callId, final Runnable reply) {
        loop.at(server.replyAtNs() + oneWayNs, reply);
    }
}
