package dev.kvtier.core.client;

/**
 * How a client's calls reach the server and its replies come back (the reference's RPC over a socket). The client
 * lives with the inference engine; the server is one thread that serves every input in turn. A call is queued behind
 * whatever the server is doing; a reply reaches the client after the server's work for it is done. Each delivery is
 * named by a call id that the client chose, so a journal can say when it happened (a
 * {@link dev.kvtier.core.event.CoreEvent.Delivered} input) and replay can deliver it at the same place.
 *
 * <p>Implementations: {@link #DIRECT} runs both at once (unit tests, the property suite); the simulator queues a call
 * on its server thread after a one-way trip and delivers a reply once the server's work (and copies) for it ended;
 * the real run posts both to its loop; replay parks both until the journal says they were delivered.
 */
public interface ServerTransport {
    /** Runs {@code input} on the server side, once the server gets to it. */
    void toServer(long callId, Runnable input);

    /** Runs {@code reply} on the client side; called on the server side, from a call's completion. */
    void toClient(long callId, Runnable reply);

    /**
     * Whether each delivery is marked with a {@link dev.kvtier.core.event.CoreEvent.Delivered} input: true when calls
     * and replies run later than they are made, so a journal must say when.
     */
    default boolean marksDeliveries() {
        return true;
    }

    /**
     * Calls and replies run at once, in the caller's stack, unmarked (how every run worked before the engine model,
     * journal format 2 and older; and unit tests).
     */
    ServerTransport DIRECT = new ServerTransport() {
        @Override
        public boolean marksDeliveries() {
            return false;
        }

        @Override
        public void toServer(final long callId, final Runnable input) {
            input.run();
        }

        @Override
        public void toClient(final long callId, final Runnable reply) {
            reply.run();
        }
    };
}
