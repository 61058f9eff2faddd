package dev.kvtier.lab.crash;

import java.util.List;
import java.util.Locale;

/**
 * The life of one whole run, measured in core events by a campaign's first run (which it lets finish): what the kill
 * points are drawn over ({@link KillPoint#draw}).
 *
 * @param setupEvents    events before the first phase started (opening and formatting the index)
 * @param phases         each workload phase in order, with its events (up to the next phase or the shutdown)
 * @param checkpoints    each checkpoint the run wrote after the index opened: events from its write to its end
 * @param shutdownEvents events from the shutdown asked for to its completion, both counted
 * @param events         every event of the run
 * @param wallNanos      the measuring process's wall time, start to exit
 */
public record Life(long setupEvents, List<Phase> phases, List<Long> checkpoints, long shutdownEvents, long events,
                   long wallNanos) {
    public Life {
        phases = List.copyOf(phases);
        checkpoints = List.copyOf(checkpoints);
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a measured run has at least one phase");
        }
        if (setupEvents < 0 || shutdownEvents < 0 || events < setupEvents) {
            throw new IllegalArgumentException("a measured life's events: setup " + setupEvents + ", shutdown "
                + shutdownEvents + ", all " + events);
        }
    }

    /**
     * A workload phase.
     *
     * @param name   its name
     * @param events its events
     */
    public record Phase(String name, long events) {}

    /** One line: the events of each part. */
    public String describe() {
        final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%,d events: setup %,d", events,
            setupEvents));
        for (final Phase p : phases) {
            b.append(String.format(Locale.ROOT, ", %s %,d", p.name(), p.events()));
        }
        b.append(String.format(Locale.ROOT, ", shutdown %,d; %d checkpoint%s", shutdownEvents, checkpoints.size(),
            checkpoints.size() == 1 ? "" : "s"));
        if (!checkpoints.isEmpty()) {
            b.append(" of ").append(checkpoints).append(" events");
        }
        return b.append(String.format(Locale.ROOT, "; %.2f s with its JVM", wallNanos / 1e9)).toString();
    }
}
