package dev.kvtier.lab.crash;

import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a killed run dies: {@code offset} core events after an anchor in its life. The anchors are {@code setup} (the
 * first core event, when the index starts to open), a workload phase by name (its {@code PhaseStarted}),
 * {@code checkpoint.N} (the N-th checkpoint write of the run after the index opened, {@code N >= 1}),
 * {@code shutdown} (the final shutdown asked for), and {@code end} (after the run returned, every byte durable). Text:
 * {@code setup+3}, {@code cold+812}, {@code checkpoint.1+2}, {@code shutdown+5}, {@code end}.
 *
 * <p>A run whose life is shorter than its point (a real run's event count varies a little from run to run) dies at
 * its end instead; the kill records where it really landed.
 *
 * @param anchor     {@link #SETUP}, {@link #CHECKPOINT}, {@link #SHUTDOWN}, {@link #END}, or a phase's name
 * @param occurrence which checkpoint (from 1) for {@link #CHECKPOINT}, else 0
 * @param offset     core events after the anchor (0 for {@link #END})
 */
public record KillPoint(String anchor, int occurrence, long offset) {
    public static final String SETUP = "setup";
    public static final String CHECKPOINT = "checkpoint";
    public static final String SHUTDOWN = "shutdown";
    public static final String END = "end";
    /** The anchors a phase may not be named after. */
    public static final List<String> RESERVED = List.of(SETUP, CHECKPOINT, SHUTDOWN, END);
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");
    private static final Pattern TEXT = Pattern.compile("([A-Za-z][A-Za-z0-9_-]{0,63})(?:\\.([0-9]{1,9}))?"
        + "(?:\\+([0-9]{1,12}))?");
    /** Shares of the draw: setup, the workload's phases together, checkpoints, shutdown, after the end. */
    private static final double[] SHARES = {0.10, 0.45, 0.20, 0.15, 0.10};

    public KillPoint {
        Objects.requireNonNull(anchor, "anchor");
        if (!NAME.matcher(anchor).matches()) {
            throw new IllegalArgumentException("a kill point's anchor is a name, got '" + anchor + "'");
        }
        if (offset < 0 || (anchor.equals(END) && offset != 0)) {
            throw new IllegalArgumentException("kill point " + anchor + ": offset " + offset);
        }
        if (anchor.equals(CHECKPOINT) != (occurrence >= 1) || occurrence < 0) {
            throw new IllegalArgumentException("kill point " + anchor + ": only a checkpoint names which one, from 1"
                + " (checkpoint.1+0), got " + occurrence);
        }
    }

    /** Parses the text form; the message names what is wrong. */
    public static KillPoint parse(final String text) {
        final Matcher m = TEXT.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("--kill-at must be ANCHOR+EVENTS (setup+3, cold+812, checkpoint.1+2, "
                + "shutdown+5) or end, got '" + text + "'");
        }
        final String anchor = m.group(1);
        final int occurrence = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        final long offset = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
        if (anchor.equals(CHECKPOINT) && occurrence < 1) {
            throw new IllegalArgumentException("--kill-at checkpoint.N+EVENTS names the checkpoint, from 1, got '"
                + text + "'");
        }
        if (!anchor.equals(CHECKPOINT) && m.group(2) != null) {
            throw new IllegalArgumentException("--kill-at: only checkpoint takes .N, got '" + text + "'");
        }
        if (anchor.equals(END) && m.group(3) != null) {
            throw new IllegalArgumentException("--kill-at end takes no +EVENTS, got '" + text + "'");
        }
        return new KillPoint(anchor, occurrence, offset);
    }

    /** The kill point of the numbered kill: drawn from its own stream over the life the campaign measured. */
    public static KillPoint draw(final long kill, final Life life) {
        final SplittableRandom rng = new SplittableRandom(kill * 0x9E3779B97F4A7C15L ^ 0x2545F4914F6CDD1DL);
        final double[] shares = SHARES.clone();
        if (life.checkpoints().isEmpty()) {
            shares[1] += shares[2];
            shares[2] = 0;
        }
        double u = rng.nextDouble();
        int which = 0;
        while (which < shares.length - 1 && u >= shares[which]) {
            u -= shares[which];
            which++;
        }
        return switch (which) {
            case 0 -> new KillPoint(SETUP, 0, below(rng, life.setupEvents()));
            case 1 -> phase(rng, life);
            case 2 -> {
                final int n = rng.nextInt(life.checkpoints().size());
                yield new KillPoint(CHECKPOINT, n + 1, below(rng, life.checkpoints().get(n)));
            }
            case 3 -> new KillPoint(SHUTDOWN, 0, below(rng, life.shutdownEvents()));
            default -> new KillPoint(END, 0, 0);
        };
    }

    /**
     * A phase, each as likely as the others (a short warm phase is as much of the life to kill as a long cold one),
     * and an event within it.
     */
    private static KillPoint phase(final SplittableRandom rng, final Life life) {
        final Life.Phase p = life.phases().get(rng.nextInt(life.phases().size()));
        return new KillPoint(p.name(), 0, below(rng, p.events()));
    }

    private static long below(final SplittableRandom rng, final long bound) {
        return bound <= 1 ? 0 : rng.nextLong(bound);
    }

    /** Whether a workload phase of this name can be told apart from the other anchors. */
    public static boolean goodPhaseName(final String name) {
        return NAME.matcher(name).matches() && !RESERVED.contains(name);
    }

    @Override
    public String toString() {
        if (anchor.equals(END)) {
            return END;
        }
        return anchor + (anchor.equals(CHECKPOINT) ? "." + occurrence : "") + "+" + offset;
    }
}
