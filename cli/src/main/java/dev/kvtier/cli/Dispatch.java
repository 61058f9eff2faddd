package dev.kvtier.cli;

import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands a loaded scenario to the composition root of a mode, with a journal beside the run: the virtual run's root is
 * {@link SimRun} (in {@code sim}), the real run's {@link RealRun} (in {@code realio}). The journal sees every event
 * after the run's own checks, stamped by the root's event clock, and is closed when the run ends, however it ends.
 */
public final class Dispatch {
    private Dispatch() {}

    /** Runs {@code sc} in virtual time with {@code seed}. */
    public static RunReport virtual(final Scenario sc, final long seed, final JournalRecording journal) {
        return virtual(sc, seed, journal, List.of());
    }

    /** As above, with {@code observers} (progress) seeing every event after the journal. */
    public static RunReport virtual(final Scenario sc, final long seed, final JournalRecording journal,
                                    final List<EventSink> observers) {
        final SimRun sim = new SimRun(sc.spec(), sc.sim(), seed, with(journal.sinks(), observers));
        journal.start(sim.serverClock());
        try {
            final RunReport r = sim.run();
            if (sim.stoppedEarly() != null) {
                System.out.println("stopped early (not a violation): " + sim.stoppedEarly());
            }
            return r;
        } finally {
            journal.close();
        }
    }

    /** Runs {@code sc} on the real devices of {@code target} with {@code seed}; progress lines go to {@code out}. */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final JournalRecording journal, final PrintStream out) throws BadDevice {
        return real(sc, seed, target, journal, List.of(), out);
    }

    /** As above, with {@code observers} (progress) seeing every event after the journal. */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final JournalRecording journal, final List<EventSink> observers,
                                      final PrintStream out) throws BadDevice {
        try (RealRun run = RealRun.open(sc.spec(), seed, target, with(journal.sinks(), observers), out)) {
            journal.start(run.eventClock());
            return run.run();
        } finally {
            journal.close();
        }
    }

    private static List<EventSink> with(final List<EventSink> first, final List<EventSink> then) {
        final List<EventSink> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }
}
