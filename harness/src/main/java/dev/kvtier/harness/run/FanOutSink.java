package dev.kvtier.harness.run;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.check.InvariantViolation;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands every event to each sink in order (the host cost model first, so later sinks see the charged time). When a
 * sink finds the event violates an invariant, the sinks after it still receive that event (the digest, the probes
 * and a journal record the violating event as the run's last) before the violation stops the run.
 */
public final class FanOutSink implements EventSink {
    private final List<EventSink> sinks = new ArrayList<>();
    private EventSink[] array = new EventSink[0];

    public FanOutSink add(final EventSink sink) {
        sinks.add(sink);
        array = sinks.toArray(new EventSink[0]);
        return this;
    }

    @Override
    public void emit(final CoreEvent event) {
        final EventSink[] all = array;
        for (int i = 0; i < all.length; i++) {
            try {
                all[i].emit(event);
            } catch (final InvariantViolation v) {
                for (int j = i + 1; j < all.length; j++) {
                    try {
                        all[j].emit(event);
                    } catch (final InvariantViolation later) {
                        v.addSuppressed(later);
                    }
                }
                throw v;
            }
        }
    }
}
