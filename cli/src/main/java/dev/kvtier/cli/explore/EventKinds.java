package dev.kvtier.cli.explore;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The event kinds one run emitted (an extra sink of the run; it never calls back into the core), and the last one:
 * the stand-in probes of a shard summary until the coverage-probe catalogue exists.
 */
final class EventKinds implements EventSink {
    private static final List<String> ALL = List.copyOf(names(CoreEvent.class, new TreeSet<>()));
    private final Set<Class<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private Class<?> last;

    @Override
    public void emit(final CoreEvent event) {
        last = event.getClass();
        seen.add(last);
    }

    /** The record names of the kinds emitted, sorted. */
    SortedSet<String> seen() {
        final SortedSet<String> names = new TreeSet<>();
        for (final Class<?> c : seen) {
            names.add(c.getSimpleName());
        }
        return names;
    }

    /** The record name of the last event emitted, or {@link Failure#NO_EVENT}. */
    String last() {
        return last == null ? Failure.NO_EVENT : last.getSimpleName();
    }

    /** Every event kind the core can emit (the records of the sealed {@code CoreEvent} hierarchy), sorted. */
    static List<String> all() {
        return ALL;
    }

    private static SortedSet<String> names(final Class<?> sealed, final SortedSet<String> into) {
        final List<Class<?>> permitted = new ArrayList<>(List.of(sealed.getPermittedSubclasses()));
        for (final Class<?> c : permitted) {
            if (c.isSealed()) {
                names(c, into);
            } else {
                into.add(c.getSimpleName());
            }
        }
        return into;
    }
}
