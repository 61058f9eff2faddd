package dev.kvtier.core.testkit;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.List;

/** Records every event, in order, for assertions. */
public final class RecordingSink implements EventSink {
    private final List<CoreEvent> events = new ArrayList<>();

    @Override
    public void emit(final CoreEvent event) {
        events.add(event);
    }

    public List<CoreEvent> all() {
        return List.copyOf(events);
    }

    /** Events of one type, in order. */
    public <T extends CoreEvent> List<T> of(final Class<T> type) {
        final List<T> out = new ArrayList<>();
        for (final CoreEvent e : events) {
            if (type.isInstance(e)) {
                out.add(type.cast(e));
            }
        }
        return out;
    }

    /** Index of the first event matching, or -1. */
    public int indexOf(final java.util.function.Predicate<CoreEvent> p) {
        for (int i = 0; i < events.size(); i++) {
            if (p.test(events.get(i))) {
                return i;
            }
        }
        return -1;
    }

    public void clear() {
        events.clear();
    }
}
