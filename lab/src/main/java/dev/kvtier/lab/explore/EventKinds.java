package dev.kvtier.lab.explore;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;

/**
 * The kind of the last event one run emitted (an extra sink of the run; it never calls back into the core): the event
 * a failure is grouped by. Coverage is the run's probes ({@code RunReport.probes}), not this.
 */
final class EventKinds implements EventSink {
    private Class<?> last;

    @Override
    public void emit(final CoreEvent event) {
        last = event.getClass();
    }

    /** The record name of the last event emitted, or {@link Failure#NO_EVENT}. */
    String last() {
        return last == null ? Failure.NO_EVENT : last.getSimpleName();
    }
}
