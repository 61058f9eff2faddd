package dev.kvtier.journal.replay;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalHeader;
import dev.kvtier.journal.file.JournalNotes;
import dev.kvtier.journal.file.JournalReader;
import dev.kvtier.journal.file.JournalSalvage;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a journal for a CLI's {@code replay}: prints the run it came from, feeds its inputs to a fresh core, and
 * prints {@code identical: N events}, the first divergence, or (with an until) the core's state. The whole journal is
 * read and checked before anything is reported, so a bad journal is one line on {@code err} and exit
 * {@link #BAD}, never a partial replay reported as identical.
 */
public final class Replay {
    private static final Pattern AT_EVENT = Pattern.compile("violated at event (\\d+)");
    /** Exit code: every event was identical, or the replay stopped where asked. */
    public static final int OK = 0;
    /** Exit code: the fresh core diverged from the journal. */
    public static final int DIVERGED = 1;
    /** Exit code: a bad journal or a bad argument. */
    public static final int BAD = 2;
    /** Exit code: the fresh core threw (a bug). */
    public static final int CRASH = 3;
    /** The client's first store id when the journal holds no store to derive it from (the simulator's). */
    public static final long DEFAULT_STORE_ID_BASE = 1L << 50;

    private Replay() {}

    /**
     * Replays the journal in {@code dir} to the end, or to the step holding event {@code untilSequence}
     * ({@link Replayer#TO_END} for no limit); prints to {@code out}, one-line errors to {@code err}; returns the exit
     * code.
     */
    public static int replay(final Path dir, final long untilSequence, final PrintStream out, final PrintStream err) {
        return replay(dir, untilSequence, false, out, err);
    }

    /**
     * As above; with {@code salvage}, a journal whose writer was killed (no seal, no end record) replays up to its last
     * complete block ({@link JournalSalvage}), and says how much it kept.
     */
    public static int replay(final Path dir, final long untilSequence, final boolean salvage, final PrintStream out,
                             final PrintStream err) {
        if (untilSequence < 0) {
            err.println("kvtier: bad --until " + untilSequence + ": a sequence number is >= 0");
            return BAD;
        }
        try {
            final long storeIdBase = firstStoreId(dir, salvage);
            try (JournalReader reader = salvage ? JournalSalvage.open(dir) : JournalReader.open(dir)) {
                final JournalHeader header = reader.header();
                printHeader(out, dir, header);
                final CoreConfig config = ReplayConfig.fromKnobs(dir, header.knobs());
                final long t0 = System.nanoTime();
                final Replayer replayer = new Replayer(reader, config, storeIdBase);
                final ReplayOutcome outcome = replayer.run(untilSequence);
                final long wallNs = System.nanoTime() - t0;
                while (reader.next() != null) {
                    // Reads the rest, so that eventsRead() counts the whole journal.
                }
                final int code = report(out, outcome, reader.eventsRead(), wallNs);
                if (reader.salvaged() != null) {
                    out.println(reader.salvaged());
                }
                return code;
            }
        } catch (final JournalException e) {
            out.flush();
            err.println("kvtier: " + e.getMessage());
            return BAD;
        }
    }

    /** The first store id the recorder's client used (its first {@code BatchSent}), or the default. */
    static long firstStoreId(final Path dir, final boolean salvage) throws JournalException {
        try (JournalReader reader = salvage ? JournalSalvage.open(dir) : JournalReader.open(dir)) {
            for (JournalEntry e = reader.next(); e != null; e = reader.next()) {
                if (e.event() instanceof CoreEvent.BatchSent sent) {
                    return sent.storeId();
                }
            }
        }
        return DEFAULT_STORE_ID_BASE;
    }

    private static void printHeader(final PrintStream out, final Path dir, final JournalHeader h) {
        final String name = h.knobs().getOrDefault("scenario.name", firstLine(h.scenario()));
        final String digest = ConfigDigest.of(h.knobs());
        out.println("journal " + dir + ": scenario " + name + ", seed " + h.seed() + ", mode " + h.mode()
            + ", code " + h.codeVersion() + ", format " + h.formatVersion());
        out.println("config " + h.configDigest() + (digest.equals(h.configDigest()) ? " (matches the knobs)"
            : " (WARNING: the knobs digest to " + digest + ")"));
        JournalNotes.read(dir, JournalNotes.INTERRUPTED).ifPresent(note -> out.println("interrupted: " + note
            + " (the journal holds the events up to there)"));
        JournalNotes.read(dir, JournalNotes.VIOLATION).ifPresent(note -> out.println("the recorded run failed: "
            + note + " (" + violatingEvent(dir, note) + "replay compares the events up to there)"));
    }

    /** Where the journal keeps the event a violation names ("at event N": the journal's last, dump number N - 1). */
    private static String violatingEvent(final Path dir, final String note) {
        final Matcher m = AT_EVENT.matcher(note);
        return m.find() ? "the journal ends with that event: ./kvtier journal dump " + dir + " --from "
            + (Long.parseLong(m.group(1)) - 1) + "; " : "";
    }

    private static String firstLine(final String text) {
        final int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    private static int report(final PrintStream out, final ReplayOutcome outcome, final long events,
                              final long wallNs) {
        return switch (outcome) {
            case ReplayOutcome.Identical i -> {
                out.printf("identical: %d events (%d inputs fed, %d decisions compared, %d annotations skipped)%n",
                    i.events(), i.inputs(), i.decisions(), i.annotations());
                if (i.restartedAt() >= 0) {
                    out.println("the recorded run crashed and restarted at event " + i.restartedAt() + "; replay"
                        + " stops there (the restarted core recovered its index from device bytes the journal does"
                        + " not hold)");
                }
                if (i.endedInsideInput()) {
                    out.println("the recording ends inside its last input (the recorded run stopped there, as at an"
                        + " invariant violation); nothing after that point was compared");
                }
                out.printf("replayed in %.3f s (%.0f events/s)%n", wallNs / 1e9, i.events() / (wallNs / 1e9));
                yield OK;
            }
            case ReplayOutcome.Diverged d -> {
                out.println("DIVERGED at sequence " + d.sequence() + " (journal of " + events + " events)");
                for (final String line : d.before()) {
                    out.println("  before    " + line);
                }
                out.println("  recorded  " + d.recorded());
                out.println("  replayed  " + d.replayed());
                yield DIVERGED;
            }
            case ReplayOutcome.Stopped s -> {
                out.println("stopped: --until " + s.untilSequence() + " (journal of " + events + " events, valid)");
                out.print(s.state());
                yield OK;
            }
            case ReplayOutcome.Crashed c -> {
                out.println("CRASH: the replayed core threw on the input at sequence " + c.sequence());
                out.println("  input  " + c.input());
                out.println("  error  " + c.error());
                yield CRASH;
            }
        };
    }
}
