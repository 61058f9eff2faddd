package dev.kvtier.lab.run;

import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Locale;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code kvtier run SCENARIO --repeat N}: the repetitions after the first run, in the same JVM, each a fresh
 * {@link SimRun} of the same scenario and seed with every checker and the digest on (no journal, no progress). Each
 * prints its events per second, with the time the garbage collector took during it and the rate outside that; the first
 * run includes the JIT's warm-up and class loading, the later ones show what an event costs once the JIT has warmed.
 * Each also prints the bytes the repetition allocated ({@link ThreadAllocation}), in all and per event.
 * Every repetition must give the first run's digest.
 */
public final class WarmRepeats {
    private WarmRepeats() {}

    /**
     * Runs repetitions 2..{@code n} of {@code sc} with {@code seed} after {@code first}; prints one line each and a
     * median line to {@code out}; stops early when {@code stop} says so (an interruption). Returns null, or why a
     * repetition differs from the first run (a digest or an outcome that differs: nondeterminism, a bug).
     */
    public static String after(final Scenario sc, final long seed, final int n, final RunReport first,
                               final PrintStream out, final BooleanSupplier stop) {
        final List<Double> rates = new ArrayList<>(n - 1);
        final List<Double> outsideGc = new ArrayList<>(n - 1);
        final List<Double> bytesPerEvent = new ArrayList<>(n - 1);
        for (int i = 2; i <= n && !stop.getAsBoolean(); i++) {
            final long gc0 = gcMillis();
            final long allocated0 = ThreadAllocation.bytesSoFar();
            final long t0 = System.nanoTime();
            final RunReport r = Runs.virtual(sc, seed);
            final long wallNs = System.nanoTime() - t0;
            final long allocated = allocated0 < 0 ? -1 : ThreadAllocation.bytesSoFar() - allocated0;
            final long gcMs = gcMillis() - gc0;
            bytesPerEvent.add((double) allocated / Math.max(1, r.events()));
            rates.add(r.events() / (wallNs / 1e9));
            outsideGc.add(r.events() / Math.max(1e-6, wallNs / 1e9 - gcMs / 1e3));
            final boolean same = r.eventDigest().equals(first.eventDigest()) && r.events() == first.events()
                && r.ok() == first.ok();
            out.printf("repeat %d of %d: events %,d  wall %.3f s, GC %.3f s  (%.0f events/s; %.0f outside GC)  digest "
                + "%s; %s%n", i, n, r.events(), wallNs / 1e9, gcMs / 1e3, rates.getLast(), outsideGc.getLast(),
                same ? "identical" : r.eventDigest(), ThreadAllocation.describe(allocated, r.events()));
            if (!same) {
                return "repetition " + i + " of seed " + seed + " gave digest " + r.eventDigest() + " (" + r.events()
                    + " events), the first run " + first.eventDigest() + " (" + first.events() + " events)";
            }
        }
        out.printf("warm: %s events/s median of repeats 2..%d; outside GC %s; allocated %s bytes/event; digest "
            + "identical in all %d%n", medianMinMax(rates), n, medianMinMax(outsideGc), medianMinMax(bytesPerEvent), n);
        return null;
    }

    /** "median (min .. max)" of {@code values}. */
    private static String medianMinMax(final List<Double> values) {
        return String.format(Locale.ROOT, "%.0f (%.0f .. %.0f)", Fidelity.median(values), Collections.min(values),
            Collections.max(values));
    }

    /** Milliseconds the JVM's collectors have spent so far (their pauses and, for concurrent ones, their work). */
    private static long gcMillis() {
        long ms = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }
}
