package dev.kvtier.lab.run;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What turns SIGINT or SIGTERM (Ctrl-C, a CI or Kubernetes timeout) into a clean stop instead of lost work. While it
 * is armed, a JVM shutdown hook asks the work to stop and then waits (at most {@link #GRACE_SECONDS}) until the work
 * says it has kept what it could ({@link #kept}); the JVM then exits with the signal's status (130 or 143). As an
 * observer sink it stops a run at its next event by throwing {@link Stopped}; loops that run many runs (an
 * exploration's seeds) ask {@link #requested()} between them. Disarmed on a normal end, it leaves no hook behind.
 */
public final class Interruption implements EventSink, AutoCloseable {
    /** How long the hook waits for the work to keep what it did. */
    public static final long GRACE_SECONDS = 60;

    private final CountDownLatch kept = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean requested;
    private long events;

    /** Thrown from a run's observer at the first event after an interruption was asked for. */
    public static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("interrupted (SIGINT or SIGTERM)", null, false, false);
        }
    }

    private Interruption(final boolean armed) {
        hook = armed ? new Thread(this::onSignal, "kvtier-interruption") : null;
    }

    /** Armed: a shutdown hook is registered until {@link #close}. */
    public static Interruption armed() {
        final Interruption i = new Interruption(true);
        Runtime.getRuntime().addShutdownHook(i.hook);
        return i;
    }

    /** Never fires: for work run inside another (a test, a repetition). */
    public static Interruption none() {
        return new Interruption(false);
    }

    /** The hook: ask the work to stop, then give it time to keep what it did. */
    private void onSignal() {
        requested = true;
        try {
            kept.await(GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the work to stop, as a signal would (tests, and a caller's own deadline). */
    public void request() {
        requested = true;
    }

    /** True once a stop was asked for. */
    public boolean requested() {
        return requested;
    }

    /** The work has kept what it could (its journal sealed, its summary written): the JVM may exit. */
    public void kept() {
        kept.countDown();
    }

    @Override
    public void emit(final CoreEvent event) {
        events++;
        if (requested) {
            throw new Stopped();
        }
    }

    /** Events seen as an observer, the one it stopped at included (on the run's thread). */
    public long events() {
        return events;
    }

    /** Disarms: removes the hook, unless the JVM is already shutting down (then the hook is running). */
    @Override
    public void close() {
        kept.countDown();
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            // The hook is running: it returns now that kept() was called.
        }
    }
}
