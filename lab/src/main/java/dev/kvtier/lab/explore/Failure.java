package dev.kvtier.lab.explore;

import dev.kvtier.lab.run.SeedPlan;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One failing seed of an exploration, as a shard summary records it.
 *
 * @param seed      the seed
 * @param invariant what broke: {@code "16 LIVENESS"} for an invariant, {@code "crash"} for an exception out of the
 *                  core or the harness (a bug), {@code "open"} when the index did not open
 * @param event     the record name of the event at which it broke (for a crash, the last event before it), or
 *                  {@code "-"} when there was none
 * @param message   the whole violation (or exception) message
 * @param exitCode  what {@code kvtier run} exits with on this seed (1 invariant, 3 crash)
 * @param reproduce the command that reruns this seed alone
 * @param swarm     the knobs this seed drew from the scenario's {@code [swarm]}, as {@code key=value}
 * @param journal   the directory of this seed's journal, or null when none was written
 */
public record Failure(long seed, String invariant, String event, String message, int exitCode, String reproduce,
                      List<String> swarm, String journal) {
    /** No event had been emitted. */
    public static final String NO_EVENT = "-";
    private static final Pattern INVARIANT = Pattern.compile("^invariant (\\d+) \\((\\w+)[:)]");
    private static final Pattern EVENT = Pattern.compile(" violated at event \\d+ \\((\\w+)\\): ");

    public Failure {
        Objects.requireNonNull(invariant, "invariant");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(reproduce, "reproduce");
        swarm = List.copyOf(swarm);
        if (invariant.isBlank() || event.isBlank()) {
            throw new IllegalArgumentException("seed " + seed + ": a failure needs an invariant and an event");
        }
    }

    /**
     * A failure from a run's violation message ({@code InvariantViolation}'s format: {@code invariant N (NAME: title)
     * violated at event S (Kind): detail}); {@code lastEvent} stands in when the message names no event.
     */
    public static Failure ofViolation(final long seed, final String violation, final String lastEvent,
                                      final int exitCode, final SeedPlan plan, final String reproduce) {
        final Matcher inv = INVARIANT.matcher(violation);
        final String invariant = inv.find() ? inv.group(1) + " " + inv.group(2) : "open";
        final Matcher ev = EVENT.matcher(violation);
        final String event = ev.find() ? ev.group(1) : lastEvent;
        return new Failure(seed, invariant, event, violation, exitCode, reproduce, plan.draws(), null);
    }

    /** A crash: an exception out of the core or the harness, after {@code lastEvent}. */
    public static Failure ofCrash(final long seed, final RuntimeException e, final String lastEvent,
                                  final int exitCode, final SeedPlan plan, final String reproduce) {
        return new Failure(seed, "crash", lastEvent, "crash (a bug): " + e, exitCode, reproduce, plan.draws(), null);
    }

    /** What merge groups failures by: the invariant and the event at which it broke. */
    public String signature() {
        return invariant + " at " + event;
    }

    /** This failure with its journal directory. */
    public Failure withJournal(final String dir) {
        return new Failure(seed, invariant, event, message, exitCode, reproduce, swarm, dir);
    }
}
