package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;

/**
 * One family of invariant checks, fed every event in order. A checker keeps its own shadow state built from events
 * only (it lives outside the system under test), and throws {@link InvariantViolation} through
 * {@link CheckContext#fail} at the first event that breaks its invariants.
 */
public interface Checker {
    /** Checks one event. */
    void onEvent(CheckContext ctx, CoreEvent event);

    /** Checks what must hold at the end of a run (everything drained). */
    default void atEnd(final CheckContext ctx) {}
}
