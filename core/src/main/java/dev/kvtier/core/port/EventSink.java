package dev.kvtier.core.port;

import dev.kvtier.core.event.CoreEvent;

/**
 * Receives every input and every decision of the core, in order, as typed records. The journal, the invariant
 * checkers, the metrics and replay all consume exactly this stream. A sink stamps time and sequence itself.
 */
@FunctionalInterface
public interface EventSink {
    /** A sink that drops everything. */
    EventSink NONE = event -> {};

    /** Called synchronously, in the order the core acts. Must not call back into the core. */
    void emit(CoreEvent event);
}
