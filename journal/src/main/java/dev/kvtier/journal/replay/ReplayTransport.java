package dev.kvtier.journal.replay;

import dev.kvtier.core.client.ServerTransport;
import java.util.HashMap;
import java.util.Map;

/**
 * The replayed client's transport: every call and reply is parked under its call id until the journal's
 * {@link dev.kvtier.core.event.CoreEvent.Delivered} input for that id is fed, so each runs exactly where it ran when
 * recorded (journal format 3 and newer). Parked work is looked up by id only, never iterated.
 */
final class ReplayTransport implements ServerTransport {
    private final Map<Long, Runnable> parked = new HashMap<>();

    @Override
    public void toServer(final long callId, final Runnable input) {
        park(callId, input);
    }

    @Override
    public void toClient(final long callId, final Runnable reply) {
        park(callId, reply);
    }

    /** Whether call {@code callId} is parked. */
    boolean isParked(final long callId) {
        return parked.containsKey(callId);
    }

    /** Runs the work parked under {@code callId}; it must be parked. */
    void deliver(final long callId) {
        final Runnable work = parked.remove(callId);
        if (work == null) {
            throw new IllegalStateException("call " + callId + " is not parked");
        }
        work.run();
    }

    private void park(final long callId, final Runnable work) {
        if (parked.putIfAbsent(callId, work) != null) {
            throw new IllegalStateException("call " + callId + " parked twice");
        }
    }
}
