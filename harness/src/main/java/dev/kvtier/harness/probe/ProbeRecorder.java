package dev.kvtier.harness.probe;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * Which probes one run reached, and how often: an event sink beside the checkers (it never calls back into the core
 * and changes no event), plus {@link #fact} for what only the simulator knows. Each event is tested by the probes of
 * its type (and those over every event) against the state before it, then the state moves on. The map by event type
 * is used for point look-ups only (and the last type's entry is kept: events of one type come in runs).
 */
public final class ProbeRecorder implements EventSink {
    private final ProbeState state;
    private final List<Probe> probes;
    private final long[] hits;
    /** By event class: the probes of that class, then those over every event. */
    private final Map<Class<?>, Tests> byType = new HashMap<>();
    private final Tests everyEvent;
    private Class<?> lastType;
    private Tests lastTests;

    /** Probes to test, as indexes into {@link #hits} and their predicates side by side. */
    private static final class Tests {
        final int[] indexes;
        final BiPredicate<ProbeState, CoreEvent>[] predicates;

        Tests(final int[] indexes, final BiPredicate<ProbeState, CoreEvent>[] predicates) {
            this.indexes = indexes;
            this.predicates = predicates;
        }
    }

    public ProbeRecorder(final CoreConfig config) {
        this.state = new ProbeState(config);
        this.probes = ProbeCatalogue.all();
        this.hits = new long[probes.size()];
        final Map<Class<?>, List<Integer>> index = new HashMap<>();
        final List<Integer> every = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            final Probe p = probes.get(i);
            if (p.source() != Probe.Source.EVENT) {
                continue;
            }
            if (p.type() == CoreEvent.class) {
                every.add(i);
            } else {
                index.computeIfAbsent(p.type(), k -> new ArrayList<>()).add(i);
            }
        }
        index.forEach((type, list) -> {
            final List<Integer> all = new ArrayList<>(list);
            all.addAll(every);
            byType.put(type, tests(all));
        });
        this.everyEvent = tests(every);
    }

    @Override
    public void emit(final CoreEvent event) {
        final Class<?> type = event.getClass();
        if (type != lastType) {
            lastTests = byType.getOrDefault(type, everyEvent);
            lastType = type;
        }
        final int[] indexes = lastTests.indexes;
        final BiPredicate<ProbeState, CoreEvent>[] predicates = lastTests.predicates;
        for (int k = 0; k < indexes.length; k++) {
            if (predicates[k].test(state, event)) {
                hits[indexes[k]]++;
            }
        }
        state.after(event);
    }

    /** The simulator reports a fact probe (an injected fault, a crash's damage); {@code count} times. */
    public void fact(final String name, final long count) {
        final int i = indexOf(name);
        if (probes.get(i).source() != Probe.Source.FACT) {
            throw new IllegalArgumentException("probe " + name + " is reached by events, not reported as a fact");
        }
        if (count < 0) {
            throw new IllegalArgumentException("fact " + name + " reported " + count + " times");
        }
        hits[i] += count;
    }

    /** The probes reached, by name (sorted), with how many times. */
    public SortedMap<String, Long> reached() {
        final SortedMap<String, Long> out = new TreeMap<>();
        for (int i = 0; i < probes.size(); i++) {
            if (hits[i] > 0) {
                out.put(probes.get(i).name(), hits[i]);
            }
        }
        return out;
    }

    /** How many times the probe named {@code name} was reached (0 when never). */
    public long hits(final String name) {
        return hits[indexOf(name)];
    }

    private int indexOf(final String name) {
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no probe named " + name);
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type; it holds only event probes' tests
    private Tests tests(final List<Integer> list) {
        final int[] indexes = new int[list.size()];
        final BiPredicate<ProbeState, CoreEvent>[] predicates = new BiPredicate[list.size()];
        for (int k = 0; k < indexes.length; k++) {
            indexes[k] = list.get(k);
            predicates[k] = probes.get(indexes[k]).test();
        }
        return new Tests(indexes, predicates);
    }
}
