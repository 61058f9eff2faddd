package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.sim.device.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which core events crash for a given seed and fault plan. The pinned points and draws are what the schedule drew
 * when it was still written out in {@code SimRun}: a schedule that drew differently would change every crashing
 * run's digest.
 */
class CrashScheduleTest {
    private static final CoreEvent OTHER = new CoreEvent.DrainRequested();
    private static final CoreEvent SHUTDOWN = new CoreEvent.ShutdownRequested();
    private static final FaultPlan FOUR_POINTS = FaultPlan.NONE.withCrashAtEvent(300).withCrashPoints(4, 8000);

    /** The events among the first {@code events} at which the power fails, with no shutdown asked for. */
    private static List<Long> failures(final CrashSchedule schedule, final long events) {
        final List<Long> at = new ArrayList<>();
        for (long n = 0; n < events; n++) {
            if (schedule.powerFailsAt(OTHER, false)) {
                at.add(n);
            }
        }
        return at;
    }

    private static long[] array(final List<Long> list) {
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void eachSeedDrawsTheCrashPointsItAlwaysDrew() {
        assertArrayEquals(new long[] {300, 2288, 2511, 4572, 5838},
            CrashSchedule.crashPoints(FOUR_POINTS, new SeededEntropy(1)));
        assertArrayEquals(new long[] {300, 3760, 3998, 5486, 7924},
            CrashSchedule.crashPoints(FOUR_POINTS, new SeededEntropy(7)));
        assertArrayEquals(new long[] {300, 2397, 5507, 6672, 7467},
            CrashSchedule.crashPoints(FOUR_POINTS, new SeededEntropy(42)));
    }

    @Test
    void thePowerFailsAtEveryPointAndNowhereElse() {
        final CrashSchedule schedule = new CrashSchedule(FOUR_POINTS, new SeededEntropy(7));
        assertArrayEquals(new long[] {300, 3760, 3998, 5486, 7924}, array(failures(schedule, 20_000)));
        assertEquals(20_000, schedule.events());
    }

    @Test
    void withoutCrashesThePowerNeverFails() {
        final CrashSchedule schedule = new CrashSchedule(FaultPlan.NONE, new SeededEntropy(7));
        assertEquals(0, schedule.points().length);
        assertEquals(List.of(), failures(schedule, 10_000));
        assertFalse(schedule.powerFailsAt(SHUTDOWN, true), "no crash during shutdown unless asked for");
        schedule.shutdownCompleted();
        assertFalse(schedule.takeAfterShutdown());
    }

    @Test
    void crashAtEventAloneCrashesOnceThere() {
        final CrashSchedule schedule = new CrashSchedule(FaultPlan.NONE.withCrashAtEvent(0), new SeededEntropy(3));
        assertEquals(List.of(0L), failures(schedule, 1_000));
    }

    @Test
    void theCrashDuringShutdownFallsWithinEightEventsOfTheFinalShutdownsRequest() {
        // Seed 1's "crash-during-shutdown" stream draws 5: the power fails 1 + 5 events after the request.
        final CrashSchedule schedule = new CrashSchedule(FaultPlan.NONE.withCrashDuringShutdown(true),
            new SeededEntropy(1));
        final List<Long> at = new ArrayList<>();
        for (long n = 0; n < 100; n++) {
            // A shutdown asked for at 10 while the workload runs is not the final one; the one at 20 is; 40 is later.
            final boolean shutdown = n == 10 || n == 20 || n == 40;
            if (schedule.powerFailsAt(shutdown ? SHUTDOWN : OTHER, n >= 20)) {
                at.add(n);
            }
        }
        assertEquals(List.of(26L), at);
    }

    @Test
    void thePowerFailsOnceAfterTheFinalShutdown() {
        final CrashSchedule schedule = new CrashSchedule(FaultPlan.NONE.withCrashAfterShutdown(true),
            new SeededEntropy(1));
        assertFalse(schedule.takeAfterShutdown());
        assertThrows(PowerLoss.class, schedule::shutdownCompleted);
        assertTrue(schedule.takeAfterShutdown(), "the restart follows the crash after shutdown");
        assertFalse(schedule.takeAfterShutdown(), "asking clears it");
        schedule.shutdownCompleted();
        assertFalse(schedule.takeAfterShutdown(), "only once");
    }

    @Test
    void theSinkThrowsAPowerLossWhereThePowerFails() {
        final CrashSchedule schedule = new CrashSchedule(FaultPlan.NONE.withCrashAtEvent(2), new SeededEntropy(1));
        final EventSink sink = schedule.sink(() -> false);
        sink.emit(OTHER);
        sink.emit(OTHER);
        assertThrows(PowerLoss.class, () -> sink.emit(OTHER));
        sink.emit(OTHER);
        assertEquals(4, schedule.events());
    }

    @Test
    void eachCrashDrawsFromItsOwnLifeStream() {
        final CrashStreams streams = new CrashStreams(new SeededEntropy(42));
        // The third crash (two before it) draws from crash/life-3/data, as SimRun always drew it.
        assertEquals(-6970071405076491975L, streams.data(2).nextLong());
        assertEquals(new SeededEntropy(42).child("crash").child("data").seed(), streams.data(0).seed());
        assertEquals(new SeededEntropy(42).child("crash").child("life-2").child("index").seed(),
            streams.index(1).seed());
        assertNotEquals(streams.data(0).seed(), streams.data(1).seed());
        assertNotEquals(streams.data(1).seed(), streams.index(1).seed());
        assertThrows(IllegalArgumentException.class, () -> streams.data(-1));
    }
}
