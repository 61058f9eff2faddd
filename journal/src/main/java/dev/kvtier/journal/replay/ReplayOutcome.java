package dev.kvtier.journal.replay;

import java.util.List;

/** How a replay ended. Every case is reported only after the whole journal was read and checked. */
public sealed interface ReplayOutcome {

    /**
     * Every event the fresh core emitted matched the recorded one, and no recorded input or decision was left.
     * {@code endedInsideInput}: the recording stops while the core was still handling its last input, as the
     * journal of a run that stopped at an invariant violation does (the violation unwound that input); what the
     * core did after the recorded end is not compared.
     *
     * @param events           events in the journal
     * @param inputs           recorded inputs fed to the core
     * @param decisions        recorded decisions compared
     * @param annotations      driver annotations skipped
     * @param endedInsideInput the recording ends inside its last input
     * @param restartedAt      the sequence at which the recorded run crashed and a new core recovered its index
     *                         (replay stops there: the recovery read device bytes the journal does not hold), or -1
     */
    record Identical(long events, long inputs, long decisions, long annotations, boolean endedInsideInput,
                     long restartedAt) implements ReplayOutcome {
        /** Identical to the end of the recording (no restart in it). */
        public Identical(final long events, final long inputs, final long decisions, final long annotations,
                         final boolean endedInsideInput) {
            this(events, inputs, decisions, annotations, endedInsideInput, -1);
        }
    }

    /**
     * The first event where the fresh core and the journal disagree.
     *
     * @param sequence the recorded event's sequence number (the journal's length when the journal had no more)
     * @param recorded the recorded event, one dump line, or a note
     * @param replayed what the fresh core did there, one dump line, or a note
     * @param before   the last recorded events before it, oldest first, as dump lines
     */
    record Diverged(long sequence, String recorded, String replayed, List<String> before) implements ReplayOutcome {
        public Diverged {
            before = List.copyOf(before);
        }
    }

    /**
     * The replay stopped as asked ({@code --until}) after the step that holds the requested event.
     *
     * @param untilSequence the sequence number asked for
     * @param lastSequence  the last recorded event replayed (the end of the step that holds the one asked for)
     * @param state         the fresh core's state at that point, several lines
     */
    record Stopped(long untilSequence, long lastSequence, String state) implements ReplayOutcome {}

    /**
     * The fresh core threw while it was fed a recorded input: a bug in the core or in replay.
     *
     * @param sequence the input's sequence number
     * @param input    the input, one dump line
     * @param error    the exception, one line
     */
    record Crashed(long sequence, String input, String error) implements ReplayOutcome {}
}
