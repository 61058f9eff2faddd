package dev.kvtier.lab.run;

import dev.kvtier.lab.BuildInfo;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalNotes;
import dev.kvtier.journal.file.JournalWriter;
import dev.kvtier.journal.replay.ConfigDigest;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code kvtier run --journal DIR}: a journal written beside a run. The header holds the scenario's full text, the
 * seed, every effective knob, their {@link ConfigDigest}, the code version (the commit the build stamped,
 * {@link BuildInfo}, else "unknown") and the mode; every event is stamped with the clock of the thread that serves
 * the core (the simulated server thread in virtual mode, the wall-clock loop in real mode), which the run's
 * composition root hands it before the first event ({@link Runs}). It is a sink and a clock, nothing more: it runs
 * nothing. Without a directory it records nothing.
 */
public final class JournalRecording implements EventSink, Clock {
    private final Path dir;
    private JournalWriter writer;
    private Clock clock;
    private String closeFailure;
    private boolean closed;

    private JournalRecording(final Path dir) {
        this.dir = dir;
    }

    /** A recording into {@code dir} (absent or empty), or none when {@code dir} is null. */
    public static JournalRecording open(final Path dir, final Scenario sc, final long seed,
                                        final RunMode mode) throws JournalException {
        return open(dir, sc, seed, mode, Long.MAX_VALUE);
    }

    /**
     * As above, on a journal disk that holds at most {@code maxBytes} (a full disk, injected): past it the journal
     * keeps and seals the events before, and {@link #finish} reports the disk full.
     */
    public static JournalRecording open(final Path dir, final Scenario sc, final long seed, final RunMode mode,
                                        final long maxBytes) throws JournalException {
        return open(dir, sc, seed, mode, maxBytes, "pid " + ProcessHandle.current().pid() + " (kvtier)");
    }

    /**
     * As above; {@code holder} (one line: process, command, since when) is what a second run on the same directory
     * is told while this one writes it.
     */
    public static JournalRecording open(final Path dir, final Scenario sc, final long seed, final RunMode mode,
                                        final long maxBytes, final String holder) throws JournalException {
        final JournalRecording recording = new JournalRecording(dir);
        if (dir != null) {
            final JournalHeader header = JournalHeader.of(sc.text(), seed, sc.knobs(), ConfigDigest.of(sc.knobs()),
                codeVersion(), headerMode(mode));
            recording.writer = new JournalWriter(dir, header, recording, maxBytes, holder);
        }
        return recording;
    }

    /** The mode as the journal header spells it. */
    private static String headerMode(final RunMode mode) {
        return switch (mode) {
            case VIRTUAL -> JournalHeader.VIRTUAL;
            case REAL -> JournalHeader.REAL;
        };
    }

    /** The sinks a runner adds: this recording when it writes a journal, else none. */
    public List<EventSink> sinks() {
        return writer == null ? List.of() : List.of(this);
    }

    /** Sets the clock that stamps events (the run's server clock); before the first event. */
    public void start(final Clock eventClock) {
        if (clock != null) {
            throw new IllegalStateException("the recording already has a clock");
        }
        clock = eventClock;
    }

    @Override
    public void emit(final CoreEvent event) {
        writer.emit(event);
    }

    @Override
    public long nowNs() {
        if (clock == null) {
            throw new IllegalStateException("an event before the recording was started");
        }
        return clock.nowNs();
    }

    /** The run's clock now (its last event's time once it stopped), or 0 before it was started. */
    public long lastEventNs() {
        return clock == null ? 0 : clock.nowNs();
    }

    /**
     * Marks the sealed journal as interrupted with {@code note} (one line; {@link JournalNotes}); true when marked or
     * there is no journal, false (the reason on {@code err}) when the note could not be written.
     */
    public boolean markInterrupted(final String note, final PrintStream err) {
        return mark(JournalNotes.INTERRUPTED, note, err);
    }

    /** Marks the sealed journal with the invariant its run broke ({@code violation}); as {@link #markInterrupted}. */
    public boolean markViolation(final String violation, final PrintStream err) {
        return mark(JournalNotes.VIOLATION, violation, err);
    }

    private boolean mark(final String name, final String note, final PrintStream err) {
        if (writer == null) {
            return true;
        }
        try {
            JournalNotes.write(dir, name, note);
            return true;
        } catch (final IOException e) {
            err.println("kvtier: " + dir + ": cannot write " + name + ": " + e.getMessage());
            return false;
        }
    }

    /** Writes the end record and the seal; a failure is kept for {@link #finish}. */
    public void close() {
        if (writer == null || closed) {
            return;
        }
        closed = true;
        try {
            writer.close();
        } catch (final JournalException e) {
            closeFailure = e.getMessage();
        }
    }

    /**
     * Gives the journal up because the run never started (its devices were refused): removes what the writer made,
     * which was all the directory held.
     */
    public void discard() {
        if (writer == null || closed) {
            return;
        }
        closed = true;
        writer.discard();
    }

    /** Prints what was written (or the failure, one line on {@code err}); false when the journal failed. */
    public boolean finish(final PrintStream out, final PrintStream err) {
        if (writer == null) {
            return true;
        }
        close();
        if (closeFailure != null) {
            err.println("kvtier: " + closeFailure);
            return false;
        }
        out.printf("journal %s: %,d events; replay: ./kvtier replay %s%n", dir, writer.eventCount(), dir);
        return true;
    }

    /** The commit this CLI was built from ({@link BuildInfo}), or "unknown". */
    public static String codeVersion() {
        return BuildInfo.commit();
    }
}
