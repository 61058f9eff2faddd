package dev.kvtier.harness.run;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.List;

/** Hands every event to each sink in order (the host cost model first, so later sinks see the charged time). */
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
        for (final EventSink s : array) {
            s.emit(event);
        }
    }
}
