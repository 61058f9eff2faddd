package dev.kvtier.cli;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code kvtier run SCENARIO --repeat N}: the repetitions after the first run, in the same JVM, each a fresh
 * {@link SimRun} of the same scenario and seed with every checker and the digest on (no journal, no progress). Each
 * prints its events per second; the first run includes the JIT's warm-up and class loading, the later ones show what
 * an event costs once the JIT has warmed. Every repetition must give the first run's digest.
 */
final class WarmRepeats {
    private WarmRepeats() {}

    /**
     * Runs repetitions 2..{@code n} of {@code sc} with {@code seed} after {@code first}; prints one line each and a
     * median line to {@code out}. Returns null, or why a repetition differs from the first run (a digest or an
     * outcome that differs: nondeterminism, a bug).
     */
    static String after(final Scenario sc, final long seed, final int n, final RunReport first,
                        final PrintStream out) {
        final double[] rates = new double[n - 1];
        for (int i = 2; i <= n; i++) {
            final long t0 = System.nanoTime();
            final RunReport r = new SimRun(sc.spec(), sc.sim(), seed, List.of()).run();
            final long wallNs = System.nanoTime() - t0;
            rates[i - 2] = r.events() / (wallNs / 1e9);
            final boolean same = r.eventDigest().equals(first.eventDigest()) && r.events() == first.events()
                && r.ok() == first.ok();
            out.printf("repeat %d of %d: events %,d  wall %.3f s  (%.0f events/s)  digest %s%n", i, n, r.events(),
                wallNs / 1e9, rates[i - 2], same ? "identical" : r.eventDigest());
            if (!same) {
                return "repetition " + i + " of seed " + seed + " gave digest " + r.eventDigest() + " (" + r.events()
                    + " events), the first run " + first.eventDigest() + " (" + first.events() + " events)";
            }
        }
        Arrays.sort(rates);
        final double median = rates.length % 2 == 1 ? rates[rates.length / 2]
            : (rates[rates.length / 2 - 1] + rates[rates.length / 2]) / 2;
        out.printf("warm: %.0f events/s median of repeats 2..%d (min %.0f, max %.0f); digest identical in all %d%n",
            median, n, rates[0], rates[rates.length - 1], n);
        return null;
    }
}
