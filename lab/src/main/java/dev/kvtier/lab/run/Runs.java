package dev.kvtier.lab.run;

import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.run.DeviceTap;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimRun;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The one way lab and the CLI run a loaded scenario: hands it to the composition root of its mode, the virtual run's
 * {@link SimRun} (in {@code sim}) or the real run's {@link RealRun} (in {@code realio}), optionally with a journal
 * beside the run. The journal sees every event after the run's own checks, stamped by the root's event clock, and is
 * closed when the run ends, however it ends.
 */
public final class Runs {
    private Runs() {}

    /** Runs {@code sc} in virtual time with {@code seed}, with no observer besides the run's own checks. */
    public static RunReport virtual(final Scenario sc, final long seed) {
        return new SimRun(sc.spec(), sc.sim(), seed, List.of()).run();
    }

    /**
     * Runs {@code sc} in virtual time with {@code seed}, {@code sink} seeing every event; the run's device storage then
     * goes to this thread's reserve for the next run's ({@link SimRun#recycle}): the same report as a run in a fresh
     * JVM, for runs one after another on one thread (exploration's seeds).
     */
    public static RunReport virtualRecycling(final Scenario sc, final long seed, final EventSink sink) {
        final SimRun run = new SimRun(sc.spec(), sc.sim(), seed, List.of(sink));
        try {
            return run.run();
        } finally {
            run.recycle();
        }
    }

    /** Runs {@code sc} in virtual time with {@code seed}, with {@code journal} beside it. */
    public static RunReport virtual(final Scenario sc, final long seed, final JournalRecording journal) {
        return virtual(sc, seed, journal, List.of(), System.out);
    }

    /**
     * As above, with {@code observers} (progress) seeing every event after the journal; a run that stopped early
     * (not a violation) says so on {@code out}.
     */
    public static RunReport virtual(final Scenario sc, final long seed, final JournalRecording journal,
                                    final List<EventSink> observers, final PrintStream out) {
        return virtualWithRequests(sc, seed, journal, observers, out).report();
    }

    /** A virtual run's report, and where each request's input tokens came from (in the order the requests ended). */
    public record Virtual(RunReport report, List<RequestTokens> requests) {
        public Virtual {
            requests = List.copyOf(requests);
        }
    }

    /** As {@link #virtual(Scenario, long, JournalRecording, List, PrintStream)}, with each request's token account. */
    public static Virtual virtualWithRequests(final Scenario sc, final long seed, final JournalRecording journal,
                                              final List<EventSink> observers, final PrintStream out) {
        final SimRun sim = new SimRun(sc.spec(), sc.sim(), seed, with(journal.sinks(), observers));
        journal.start(sim.serverClock());
        try {
            final RunReport r = sim.run();
            if (sim.stoppedEarly() != null) {
                out.println("stopped early (not a violation): " + sim.stoppedEarly());
            }
            return new Virtual(r, sim.requestTokens());
        } finally {
            journal.close();
        }
    }

    /**
     * Runs {@code sc} on the real devices of {@code target} with {@code seed}, {@code journal} beside it and
     * {@code observers} (progress) seeing every event after the journal; progress lines go to {@code out}. A run whose
     * devices are refused gives its journal up (it is removed, docs/what-kvtier-writes.md): it used to be sealed here
     * first, and kept.
     */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final JournalRecording journal, final List<EventSink> observers,
                                      final PrintStream out) throws BadDevice {
        try (RealRun run = RealRun.open(sc.spec(), seed, target, with(journal.sinks(), observers), out)) {
            journal.start(run.eventClock());
            return run.run();
        } catch (final BadDevice e) {
            journal.discard();
            throw e;
        } finally {
            journal.close();
        }
    }

    /** Runs {@code sc} on the real devices of {@code target} with {@code seed} and no journal. */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final PrintStream out) throws BadDevice {
        return real(sc, seed, target, List.of(), out);
    }

    /**
     * Runs {@code sc} on the real devices of {@code target} with {@code seed}, no journal, and {@code observers} seeing
     * every event after the run's own checks (a crash campaign's acknowledgement log).
     */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final List<EventSink> observers, final PrintStream out) throws BadDevice {
        try (RealRun run = RealRun.open(sc.spec(), seed, target, observers, out)) {
            return run.run();
        }
    }

    /**
     * Runs {@code sc} on the real devices of {@code target} with {@code seed}, no journal, {@code observers} seeing
     * every event after the run's own checks, and {@code tap} between the core and each device (a recording of its
     * I/O for crash images).
     */
    public static RealRun.Result real(final Scenario sc, final long seed, final RealTarget target,
                                      final List<EventSink> observers, final DeviceTap tap,
                                      final PrintStream out) throws BadDevice {
        try (RealRun run = RealRun.open(LibcKernel.create(), sc.spec(), seed, target, observers, out, tap)) {
            return run.run();
        }
    }

    private static List<EventSink> with(final List<EventSink> first, final List<EventSink> then) {
        final List<EventSink> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }
}
