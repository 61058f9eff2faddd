package dev.kvtier.sim.loop;

import dev.kvtier.core.port.Scheduler;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * The discrete-event loop on a virtual clock. Events run in order of time, then of scheduling sequence, so equal
 * times never depend on collection order; the clock jumps to each event's time. Single-threaded by construction.
 * Every run is bounded by {@code maxEvents} (STYLE rule 10). It is not re-entrant: an event that steps the loop is
 * refused (it would run later events inside an earlier one, out of time order).
 */
public final class EventLoop implements Scheduler {
    private record Task(long timeNs, long seq, Runnable work) {}

    private final PriorityQueue<Task> queue = new PriorityQueue<>((a, b) -> a.timeNs != b.timeNs
        ? Long.compare(a.timeNs, b.timeNs) : Long.compare(a.seq, b.seq));
    private final long maxEvents;
    private long nowNs;
    private long seq;
    private long executed;
    private boolean running;

    public EventLoop(final long maxEvents) {
        if (maxEvents <= 0) {
            throw new IllegalArgumentException("maxEvents must be positive, got " + maxEvents);
        }
        this.maxEvents = maxEvents;
    }

    @Override
    public long nowNs() {
        return nowNs;
    }

    @Override
    public void at(final long timeNs, final Runnable task) {
        queue.add(new Task(Math.max(timeNs, nowNs), seq++, Objects.requireNonNull(task, "task")));
    }

    /** Runs the next event; false when none is left. Throws when the event budget is exhausted. */
    public boolean step() {
        if (running) {
            throw new IllegalStateException("the loop was stepped from inside an event at " + nowNs + " ns");
        }
        final Task t = queue.poll();
        if (t == null) {
            return false;
        }
        if (t.timeNs < nowNs) {
            throw new IllegalStateException("time went backwards: " + t.timeNs + " < " + nowNs);
        }
        if (++executed > maxEvents) {
            throw new LoopBudgetExceeded(maxEvents, nowNs);
        }
        nowNs = t.timeNs;
        running = true;
        try {
            t.work.run();
        } finally {
            running = false;
        }
        return true;
    }

    /** Runs until no event is left. */
    public void run() {
        while (step()) {
            // each step runs one event
        }
    }

    /**
     * A simulated power loss: every scheduled event is dropped (device completions, workload timers, server work).
     * The clock and the event count go on.
     */
    public void dropAll() {
        queue.clear();
    }

    /** Loop events executed so far. */
    public long executed() {
        return executed;
    }

    public int pending() {
        return queue.size();
    }

    /** The run went past its event budget: a liveness failure (or a budget set too low). */
    public static final class LoopBudgetExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LoopBudgetExceeded(final long max, final long atNs) {
            super("event budget of " + max + " loop events exhausted at virtual time " + atNs + " ns");
        }
    }
}
