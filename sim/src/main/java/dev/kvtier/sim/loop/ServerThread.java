package dev.kvtier.sim.loop;

import dev.kvtier.core.port.Clock;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * The simulated server thread: the core is single-threaded, so its inputs are served one at a time, first-come
 * first-served, and each costs the host time that the host cost model charges while it runs ({@link #charge}).
 * While an input runs, {@link #nowNs} is the start of the step plus what has been charged so far, so an I/O
 * submitted late in a step reaches the device later, and an acknowledgement is stamped when the work is done.
 *
 * <p>Copies that a host performs off its server thread ({@link #chargeCopy}) run on one copy engine, first-come
 * first-served, beside the thread: they do not hold up the next input, but a reply made in the same step leaves only
 * once they are done ({@link #replyAtNs}).
 */
public final class ServerThread implements Clock {
    private final EventLoop loop;
    private final ArrayDeque<Runnable> inputs = new ArrayDeque<>();
    private long busyUntilNs;
    private long heldUntilNs;
    private long stepStartNs;
    private long chargedNs;
    private long busyTotalNs;
    private long copyFreeNs;
    private long stepCopiesEndNs;
    private boolean inStep;
    private boolean drainScheduled;

    public ServerThread(final EventLoop loop) {
        this.loop = loop;
    }

    /** Queues an input; it runs when the server thread is free. */
    public void submit(final Runnable input) {
        inputs.add(Objects.requireNonNull(input, "input"));
        scheduleDrain();
    }

    /** Charges host time to the running step; ignored outside a step (client-side work is free here). */
    public void charge(final long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative charge " + ns);
        }
        if (inStep) {
            chargedNs += ns;
        }
    }

    /**
     * Charges a copy to the copy engine, beside the thread (outside a step, client-side copies are not charged here).
     * A reply made later in this step waits for it.
     */
    public void chargeCopy(final long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative copy charge " + ns);
        }
        if (inStep) {
            copyFreeNs = Math.max(copyFreeNs, nowNs()) + ns;
            stepCopiesEndNs = copyFreeNs;
        }
    }

    /** When a reply made now leaves the server: now, or the end of the copies this step made, if later. */
    public long replyAtNs() {
        return inStep ? Math.max(nowNs(), stepCopiesEndNs) : nowNs();
    }

    /** When the thread is free for other work: the end of the running step's work so far, or of its last work. */
    public long freeAtNs() {
        return inStep ? stepStartNs + chargedNs : Math.max(busyUntilNs, heldUntilNs);
    }

    /**
     * Work other than the server's inputs holds the thread until {@code endNs} (the engine's work in a mode where the
     * engine runs on the server's thread): the next input starts no earlier. Only outside a step.
     */
    public void holdUntil(final long endNs) {
        if (inStep) {
            throw new IllegalStateException("the server thread is running a step; work in it is charged to it");
        }
        heldUntilNs = Math.max(heldUntilNs, endNs);
    }

    /** Whether an input is running (work now is the server's). */
    public boolean inStep() {
        return inStep;
    }

    @Override
    public long nowNs() {
        return inStep ? stepStartNs + chargedNs : Math.max(loop.nowNs(), 0);
    }

    /** Total virtual time the server thread spent busy. */
    public long busyTotalNs() {
        return busyTotalNs;
    }

    /**
     * A simulated power loss: queued inputs are dropped and the thread is free from the instant the power failed (the
     * dying step's time so far, so the clock that stamps events never goes back).
     */
    public void crash() {
        if (inStep) {
            busyUntilNs = Math.max(busyUntilNs, stepStartNs + chargedNs);
        }
        inputs.clear();
        heldUntilNs = Math.min(heldUntilNs, loop.nowNs());
        drainScheduled = false;
        inStep = false;
        copyFreeNs = Math.min(copyFreeNs, busyUntilNs);
    }

    public boolean idle() {
        return inputs.isEmpty() && !inStep;
    }

    private void scheduleDrain() {
        if (drainScheduled || inStep) {
            return;
        }
        drainScheduled = true;
        loop.at(Math.max(loop.nowNs(), Math.max(busyUntilNs, heldUntilNs)), this::runOne);
    }

    private void runOne() {
        if (heldUntilNs > loop.nowNs()) {
            loop.at(heldUntilNs, this::runOne);
            return;
        }
        drainScheduled = false;
        final Runnable input = inputs.poll();
        if (input == null) {
            return;
        }
        if (loop.nowNs() < busyUntilNs) {
            throw new IllegalStateException("an input starts at " + loop.nowNs() + " ns, before the last one ended at "
                + busyUntilNs + " ns");
        }
        inStep = true;
        stepStartNs = loop.nowNs();
        chargedNs = 0;
        stepCopiesEndNs = 0;
        try {
            input.run();
        } finally {
            inStep = false;
            busyUntilNs = stepStartNs + chargedNs;
            busyTotalNs += chargedNs;
        }
        if (!inputs.isEmpty()) {
            scheduleDrain();
        }
    }
}
