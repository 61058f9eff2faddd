package dev.kvtier.bench;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.util.ArrayList;
import java.util.List;

/**
 * The event stream of one seeded virtual run, as the run's own sinks saw it: every core event with its time and the
 * live core's L1 entry count and resident bytes at that moment (what the structural checker cross-checks).
 *
 * @param scenario the scenario run
 * @param events   every core event, in order
 * @param timesNs  each event's time on the server clock
 * @param entries  the core's L1 entry count when each event was emitted
 * @param resident the core's resident L1 bytes when each event was emitted
 * @param report   the run's report
 */
@SuppressWarnings("ArrayRecordComponent") // a benchmark's fixture, read by index; never compared or hashed
public record Recording(Scenario scenario, List<CoreEvent> events, long[] timesNs, long[] entries, long[] resident,
                        RunReport report) {
    public Recording {
        events = List.copyOf(events);
        if (timesNs.length != events.size() || entries.length != events.size() || resident.length != events.size()) {
            throw new IllegalArgumentException("arrays of " + timesNs.length + "/" + entries.length + "/"
                + resident.length + " for " + events.size() + " events");
        }
    }

    /** Runs library scenario {@code name} with {@code seed} and records its events. */
    public static Recording of(final String name, final long seed) {
        final Scenario sc = load(name);
        final List<CoreEvent> events = new ArrayList<>();
        final LongList times = new LongList();
        final LongList entries = new LongList();
        final LongList resident = new LongList();
        final SimRun[] run = new SimRun[1];
        final EventSink capture = event -> {
            events.add(event);
            times.add(run[0].serverClock().nowNs());
            entries.add(run[0].kvServer().tieredStore().l1().entries().size());
            resident.add(run[0].kvServer().tieredStore().residentBytes());
        };
        run[0] = new SimRun(sc.spec(), sc.sim(), seed, List.of(capture));
        final RunReport report = run[0].run();
        if (report.violation() != null) {
            throw new IllegalStateException(name + " seed " + seed + " broke an invariant: " + report.violation());
        }
        return new Recording(sc, events, times.toArray(), entries.toArray(), resident.toArray(), report);
    }

    /** Loads library scenario {@code name} with no overrides. */
    public static Scenario load(final String name) {
        try {
            return ScenarioLoader.load(name, List.of());
        } catch (final ScenarioException e) {
            throw new IllegalArgumentException("scenario " + name + ": " + e.getMessage(), e);
        }
    }

    /** A growable array of longs. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(final long value) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
