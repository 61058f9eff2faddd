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

/**
 * Which probes one run reached, and how often: an event sink beside the checkers (it never calls back into the core
 * and changes no event), plus {@link #fact} for what only the simulator knows. Each event is tested by the probes of
 * its type (and those over every event) against the state before it, then the state moves on. The map by event type
 * is used for point look-ups only.
 */
public final class ProbeRecorder implements EventSink {
    private final ProbeState state;
    private final List<Probe> probes;
    private final long[] hits;
    private final Map<Class<?>, int[]> byType = new HashMap<>();
    private final int[] everyEvent;

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
        index.forEach((type, list) -> byType.put(type, ints(list)));
        this.everyEvent = ints(every);
    }

    @Override
    public void emit(final CoreEvent event) {
        final int[] mine = byType.get(event.getClass());
        if (mine != null) {
            test(mine, event);
        }
        test(everyEvent, event);
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

    private void test(final int[] which, final CoreEvent event) {
        for (final int i : which) {
            if (probes.get(i).test().test(state, event)) {
                hits[i]++;
            }
        }
    }

    private int indexOf(final String name) {
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no probe named " + name);
    }

    private static int[] ints(final List<Integer> list) {
        final int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }
}
