package dev.kvtier.harness.check;

import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The checker's own model of {@code L2Admission.SECOND_SIGHT} (written apart from the core's): the keys seen once and
 * not admitted, at most {@code capacity}, the oldest forgotten first. Each remembered key carries the number of the
 * sighting that remembered it; the queue holds every sighting in order, and a queued sighting whose key was admitted
 * since (or remembered again later) is skipped when it reaches the front. The map serves point look-ups only.
 */
final class SeenOnceModel {
    private record Sighting(PrefixKey key, long number) {}

    private final int capacity;
    private final Map<PrefixKey, Long> remembered = new HashMap<>();
    private final ArrayDeque<Sighting> queue = new ArrayDeque<>();
    private long sightings;

    SeenOnceModel(final int capacity) {
        this.capacity = capacity;
    }

    /** Whether an allocation of {@code key} must be admitted now, updating the model as the spec says. */
    boolean admits(final PrefixKey key) {
        if (remembered.remove(key) != null) {
            return true;
        }
        while (remembered.size() >= capacity) {
            final Sighting front = queue.removeFirst();
            final Long number = remembered.get(front.key());
            if (number != null && number == front.number()) {
                remembered.remove(front.key());
            }
        }
        final long n = ++sightings;
        remembered.put(key, n);
        queue.addLast(new Sighting(key, n));
        return false;
    }
}
