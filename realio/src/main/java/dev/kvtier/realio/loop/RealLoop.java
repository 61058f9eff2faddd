package dev.kvtier.realio.loop;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The real event loop: Scheduler on the wall clock, over one {@link PolledDevice}. Confined to one thread (the one
 * that opened the device). Timers run in time order, ties in the order scheduled; a task scheduled while a step
 * runs (including {@link #post}) runs in a later step. Limits: at most {@code timersMax} timers pending, at most
 * {@code tasksPerStep} tasks and {@code completionsPerStep} completions per step, and an idle wait of at most
 * {@code idleWaitNsMax}, so a stop condition set by another thread is seen within that time. It is not re-entrant:
 * a task or completion that steps or runs the loop is refused.
 */
public final class RealLoop implements Scheduler {
    /** Why {@link #run} returned. */
    public enum Outcome {
        /** The stop condition held. */
        STOPPED,
        /** The deadline passed first. */
        DEADLINE
    }

    private record Timer(long timeNs, long seq, Runnable task) {}

    private final PolledDevice device;
    private final CompletionSink sink;
    private final int timersMax;
    private final int tasksPerStep;
    private final int completionsPerStep;
    private final long idleWaitNsMax;
    private final PriorityQueue<Timer> timers;
    private long nowNs;
    private long nextSeq;
    private long steps;
    private long idleWaits;
    private boolean stepping;

    /**
     * @param device      the device to drive
     * @param completions receives every completion, on the loop thread
     */
    public RealLoop(final PolledDevice device, final Consumer<IoCompletion> completions, final int timersMax,
                    final int tasksPerStep, final int completionsPerStep, final long idleWaitNsMax) {
        this.device = Objects.requireNonNull(device, "device");
        Objects.requireNonNull(completions, "completions");
        if (timersMax < 1 || tasksPerStep < 1 || completionsPerStep < 1) {
            throw new IllegalArgumentException("loop limits must be positive: timersMax " + timersMax
                + ", tasksPerStep " + tasksPerStep + ", completionsPerStep " + completionsPerStep);
        }
        if (idleWaitNsMax < 1_000 || idleWaitNsMax > 1_000_000_000L) {
            throw new IllegalArgumentException("idleWaitNsMax must be in [1 us, 1 s], got " + idleWaitNsMax);
        }
        this.sink = (ioId, result) -> {
            nowNs = System.nanoTime();
            completions.accept(new IoCompletion(ioId, result));
        };
        this.timersMax = timersMax;
        this.tasksPerStep = tasksPerStep;
        this.completionsPerStep = completionsPerStep;
        this.idleWaitNsMax = idleWaitNsMax;
        this.timers = new PriorityQueue<>(Math.min(timersMax, 1024), (a, b) -> {
            final long d = a.timeNs() - b.timeNs();
            return d != 0 ? (d < 0 ? -1 : 1) : Long.compare(a.seq(), b.seq());
        });
        this.nowNs = System.nanoTime();
    }

    /**
     * A loop with default limits: 65536 timers, 4096 tasks and one completion per step, 10 ms idle waits. One
     * completion a step lets a timer that falls due while completions are handled (the engine's next step, a reply)
     * run after the completion in hand, not after every completion that was ready: as in the simulator, where each
     * completion is an input of its own. A completion can cost tens of milliseconds of byte work (promoting a 63 MiB
     * read into L1); with 4096 a step, a real small-L1 run's warm phase took 4.12-4.15 s and its warm TTFT 1031-1038
     * ms, with one 3.71-3.72 s and 856-859 ms (2026-12-03, alternating, two runs each).
     */
    public static RealLoop over(final PolledDevice device, final Consumer<IoCompletion> completions) {
        return new RealLoop(device, completions, 65_536, 4096, 1, 10_000_000L);
    }

    /**
     * The time read when the running input (a timer's task, a completion) started, or at the start of the current (or
     * last) step between inputs: what an input does is stamped when it began, not when its step began (an earlier
     * input of the step may have taken tens of milliseconds of byte work).
     */
    @Override
    public long nowNs() {
        return nowNs;
    }

    @Override
    public void at(final long timeNs, final Runnable task) {
        Objects.requireNonNull(task, "task");
        if (timers.size() == timersMax) {
            throw new IllegalStateException("more than " + timersMax + " timers pending");
        }
        timers.add(new Timer(timeNs, nextSeq++, task));
    }

    /** Timers pending. */
    public int pendingTimers() {
        return timers.size();
    }

    public long steps() {
        return steps;
    }

    /** Steps that found nothing to do and waited in the device. */
    public long idleWaits() {
        return idleWaits;
    }

    /**
     * One step: read the clock, run the timers due then and scheduled before this step, flush the device's
     * submissions, reap and deliver its completions (the clock read again before each task and each completion).
     * Returns the work done (tasks run plus completions delivered plus operations submitted).
     */
    public int step() {
        if (stepping) {
            throw new IllegalStateException("the loop was stepped from inside one of its steps");
        }
        stepping = true;
        try {
            return stepOnce();
        } finally {
            stepping = false;
        }
    }

    private int stepOnce() {
        final long stepNs = System.nanoTime();
        nowNs = stepNs;
        steps++;
        final long seqLimit = nextSeq;
        int ran = 0;
        while (ran < tasksPerStep && !timers.isEmpty()) {
            final Timer t = timers.peek();
            if (t.timeNs() - stepNs > 0 || t.seq() >= seqLimit) {
                break;
            }
            timers.poll();
            nowNs = System.nanoTime();
            t.task().run();
            ran++;
        }
        final int submitted = device.flush();
        final int reaped = device.poll(sink, completionsPerStep);
        if (reaped > 0) {
            device.flush(); // what the completions submitted goes out in this step
        }
        return ran + submitted + reaped;
    }

    /**
     * Steps until {@code stop} holds or the clock passes {@code deadlineNs}. A step with no work waits in the
     * device for a completion, at most until the next timer, the deadline, or {@code idleWaitNsMax}.
     */
    public Outcome run(final BooleanSupplier stop, final long deadlineNs) {
        Objects.requireNonNull(stop, "stop");
        while (true) {
            if (stop.getAsBoolean()) {
                return Outcome.STOPPED;
            }
            final int work = step();
            if (stop.getAsBoolean()) {
                return Outcome.STOPPED;
            }
            if (nowNs - deadlineNs >= 0) {
                return Outcome.DEADLINE;
            }
            if (work == 0) {
                long waitNs = Math.min(idleWaitNsMax, deadlineNs - nowNs);
                final Timer next = timers.peek();
                if (next != null) {
                    waitNs = Math.min(waitNs, Math.max(0, next.timeNs() - nowNs));
                }
                if (waitNs > 0) {
                    idleWaits++;
                    device.await(waitNs);
                }
            }
        }
    }

    /** Runs for {@code timeoutNs} from now at most; see {@link #run(BooleanSupplier, long)}. */
    public Outcome runFor(final BooleanSupplier stop, final long timeoutNs) {
        return run(stop, System.nanoTime() + timeoutNs);
    }
}
