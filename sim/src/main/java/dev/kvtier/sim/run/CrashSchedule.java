package dev.kvtier.sim.run;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.entropy.SeedStream;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.sim.device.FaultPlan;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * When the power fails in one virtual run, as its {@link FaultPlan} and seed say. Core events are counted from 0
 * across every life of the core, and the power fails:
 * <ul>
 *   <li>at each crash point: {@code crashAtEvent} (if set) and the {@code crashPoints} drawn from
 *   {@code [0, crashWithinEvents)} by the seed's {@link SeedStream#CRASH_POINTS} stream (ascending, distinct; a run
 *   crashes at each point it reaches);</li>
 *   <li>with {@code crashDuringShutdown}, at one of the eight core events after the run's first final shutdown was
 *   asked for (a {@link CoreEvent.ShutdownRequested} once the workload is done), drawn by the seed's
 *   {@link SeedStream#CRASH_DURING_SHUTDOWN} stream; none when the shutdown completes sooner;</li>
 *   <li>with {@code crashAfterShutdown}, once, when the run's final shutdown has completed; the restart that follows
 *   only recovers and shuts down again ({@link #takeAfterShutdown}).</li>
 * </ul>
 * Where the power fails, {@link #sink} and {@link #shutdownCompleted} throw {@link PowerLoss}.
 */
final class CrashSchedule {
    /** How many core events after the final shutdown's request the crash during it may fall. */
    static final int DURING_SHUTDOWN_EVENTS = 8;

    private final FaultPlan faults;
    private final SeededEntropy root;
    private final long[] points;
    private int nextPoint;
    private long events;
    private long duringShutdownAt = -1;
    private boolean crashedAfterShutdown;
    private boolean afterShutdownPending;

    /** The schedule of a run with {@code faults} whose root entropy is {@code root}. */
    CrashSchedule(final FaultPlan faults, final SeededEntropy root) {
        this.faults = faults;
        this.root = root;
        this.points = crashPoints(faults, root);
    }

    /**
     * The core events at which the run crashes, ascending and distinct: {@code crashAtEvent} (if set) and the
     * {@code crashPoints} drawn from {@code [0, crashWithinEvents)} by the root's own "crash-points" stream.
     */
    static long[] crashPoints(final FaultPlan faults, final SeededEntropy root) {
        final TreeSet<Long> points = new TreeSet<>();
        if (faults.crashAtEvent() >= 0) {
            points.add(faults.crashAtEvent());
        }
        final SeededEntropy draws = root.child(SeedStream.CRASH_POINTS);
        for (int i = 0; i < faults.crashPoints(); i++) {
            points.add(Math.floorMod(draws.nextLong(), faults.crashWithinEvents()));
        }
        return points.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Counts one core event; true when the power fails at it. {@code workloadDone}: the workload has finished, so a
     * shutdown asked for now is the run's final one.
     */
    boolean powerFailsAt(final CoreEvent event, final boolean workloadDone) {
        final long n = events++;
        if (event instanceof CoreEvent.ShutdownRequested && faults.crashDuringShutdown() && duringShutdownAt < 0
            && workloadDone) {
            duringShutdownAt = n + 1 + root.child(SeedStream.CRASH_DURING_SHUTDOWN).nextInt(DURING_SHUTDOWN_EVENTS);
        }
        final boolean atPoint = nextPoint < points.length && n == points[nextPoint];
        assert nextPoint >= points.length || n <= points[nextPoint] : "crash point " + points[nextPoint]
            + " passed at event " + n;
        if (atPoint) {
            nextPoint++;
        }
        return atPoint || n == duringShutdownAt;
    }

    /** The sink that counts core events and throws {@link PowerLoss} at each one where the power fails. */
    EventSink sink(final BooleanSupplier workloadDone) {
        return event -> {
            if (powerFailsAt(event, workloadDone.getAsBoolean())) {
                throw new PowerLoss();
            }
        };
    }

    /** The run's final shutdown completed: with {@code crashAfterShutdown}, the power fails now (once). */
    void shutdownCompleted() {
        if (faults.crashAfterShutdown() && !crashedAfterShutdown) {
            crashedAfterShutdown = true;
            afterShutdownPending = true;
            throw new PowerLoss();
        }
    }

    /** Whether the power loss being handled is the one after the final shutdown; asking clears it. */
    boolean takeAfterShutdown() {
        final boolean after = afterShutdownPending;
        afterShutdownPending = false;
        return after;
    }

    /** Whether the power can fail at all in this run: a crash point, or a crash during or after the final shutdown. */
    boolean mayCrash() {
        return points.length > 0 || faults.crashDuringShutdown() || faults.crashAfterShutdown();
    }

    /** Core events counted so far (across every life of the core). */
    long events() {
        return events;
    }

    /** The crash points, ascending (a copy). */
    long[] points() {
        return Arrays.copyOf(points, points.length);
    }
}
