package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host profile holds every cost a real run pays on its thread, the content and per-event ones included. */
class HostCalibrationTest {

    @Test
    void shouldMeasureContentCostsAndTheObserversPerEvent() {
        final HostCostProfile p = HostCalibration.measure("t", 1, 256 * 1024, 0);
        assertTrue(p.memcpyBytesPerSec() > 0 && p.checksumBytesPerSec() > 0 && p.verifyBytesPerSec() > 0
            && p.stampBytesPerSec() > 0 && p.checksumCopiedBytesPerSec() > 0, p.toString());
        assertTrue(p.eventNs() >= 0, p.toString());
        assertTrue(p.engineOnServerThread(), "a real run's engine shares the server's loop thread");
        final String toml = HostCalibration.toml(p);
        assertTrue(toml.contains("\nengineOnServerThread = true\n"), toml);
        for (final String key : List.of("checksumBytesPerSec", "verifyBytesPerSec", "stampBytesPerSec", "eventNs",
            "checksumCopiedBytesPerSec")) {
            assertTrue(toml.contains("\n" + key + " = "), key + " in\n" + toml);
        }
    }

    @Test
    void shouldTakeTheByteWorkBandwidthsOfARealRunAndKeepTheRest() {
        final HostCostProfile micro = new HostCostProfile("m", 1, 2, 3, 4, 5, 20_000_000_000L, 20_000_000_000L, true,
            6_000_000_000L, 5_000_000_000L, 7_000_000_000L, 8, true, 9_000_000_000L);
        final ByteWork.Tally none = ByteWork.Tally.NONE;
        final ByteWork run = new ByteWork(new ByteWork.Tally(10_000_000_000L, 1_000_000_000L, 5),
            new ByteWork.Tally(3_000_000_000L, 1_000_000_000L, 7), none, new ByteWork.Tally(4_000_000_000L,
                2_000_000_000L, 9),
            none);
        final HostCostProfile p = HostCalibration.withByteRates(micro, run);
        assertEquals(10_000_000_000L, p.memcpyBytesPerSec());
        assertEquals(10_000_000_000L, p.dmaBytesPerSec(), "no GPU: DMA as the copies");
        assertEquals(3_000_000_000L, p.checksumBytesPerSec());
        assertEquals(2_000_000_000L, p.stampBytesPerSec());
        assertEquals(9_000_000_000L, p.checksumCopiedBytesPerSec(), "not done in the run: kept");
        assertEquals(5_000_000_000L, p.verifyBytesPerSec(), "not done in the run: kept");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 8L), List.of(p.spanNs(), p.entryNs(), p.ioSubmitNs(),
            p.ioCompleteNs(), p.requestNs(), p.eventNs()));
        final String toml = HostCalibration.toml(p, List.of("from a run"));
        assertTrue(toml.lines().toList().get(1).equals("# from a run"), toml);
        assertTrue(toml.contains("memcpyBytesPerSec = 10000000000"), toml);
    }

    /**
     * Two runs that copy the same bytes, one in few large copies and one in many small ones, give the bandwidth and
     * the cost a copy: here 10 GB/s and 150 us, as this project's VM's per-slot run showed (14.5 GB in 72 and 3,423).
     */
    @Test
    void shouldFitTheCopyBandwidthAndTheCostOfACopyFromTwoRuns() {
        final HostCostProfile p = new HostCostProfile("m", 1, 2, 3, 4, 5, 20_000_000_000L, 20_000_000_000L, true,
            6_000_000_000L, 5_000_000_000L, 7_000_000_000L, 8, true, 9_000_000_000L);
        final long bytes = 14_500_000_000L;
        final ByteWork.Tally few = new ByteWork.Tally(bytes, bytes / 10 + 72 * 150_000L, 72);
        final ByteWork.Tally many = new ByteWork.Tally(bytes, bytes / 10 + 3_423 * 150_000L, 3_423);
        final HostCostProfile fitted = HostCalibration.withCopyCost(p, few, many);
        assertTrue(Math.abs(fitted.memcpyBytesPerSec() - 10_000_000_000L) <= 1_000_000, fitted.toString());
        assertEquals(fitted.memcpyBytesPerSec(), fitted.dmaBytesPerSec());
        assertTrue(Math.abs(fitted.copyOpNs() - 150_000) <= 1, fitted.toString());
        assertEquals(List.of(6_000_000_000L, 5_000_000_000L, 7_000_000_000L, 9_000_000_000L),
            List.of(fitted.checksumBytesPerSec(), fitted.verifyBytesPerSec(), fitted.stampBytesPerSec(),
                fitted.checksumCopiedBytesPerSec()));
        assertTrue(HostCalibration.toml(fitted).contains("\ncopyOpNs = " + fitted.copyOpNs() + "\n"),
            HostCalibration.toml(fitted));
        assertEquals(p, HostCalibration.withCopyCost(p, few, few), "as many copies in both: nothing to fit");
        final ByteWork.Tally faster = new ByteWork.Tally(bytes, bytes / 20, 3_423);
        assertEquals(p, HostCalibration.withCopyCost(p, few, faster), "more copies, less time: a negative cost");
    }

    /**
     * The loop's other work of two runs, one with many more events for about the same byte work (per slot), gives a
     * part per event and a part that grows with the byte work: here 3 us an event and 2 % of the byte work.
     */
    @Test
    void shouldSplitTheLoopsOtherWorkIntoAPartPerEventAndAPartPerByteWork() {
        final LoopTime few = loop(4_000, 4_300_000_000L, 3_000L * 4_000 + 86_000_000L);
        final LoopTime many = loop(10_000, 4_800_000_000L, 3_000L * 10_000 + 96_000_000L);
        final long[] fit = HostCalibration.otherWork(few, many);
        assertTrue(Math.abs(fit[0] - 3_000) <= 1, "ns an event" + ": " + fit[0]);
        assertTrue(Math.abs(fit[1] - 20_000) <= 1, "millionths of the byte work" + ": " + fit[1]);
        final HostCostProfile p = new HostCostProfile("m", 1, 2, 3, 4, 5, 20_000_000_000L, 20_000_000_000L, true,
            6_000_000_000L, 5_000_000_000L, 7_000_000_000L, 8, true, 9_000_000_000L, 150_000);
        final HostCostProfile charged = HostCalibration.withOtherWork(p, fit[0], fit[1]);
        assertEquals(List.of(fit[0], fit[1], 150_000L), List.of(charged.eventNs(), charged.otherWorkPpm(),
            charged.copyOpNs()));
        assertEquals(1_020_000, charged.withOtherWork(1_000_000), "2 % more byte work time");
        assertTrue(HostCalibration.toml(charged).contains("\notherWorkPpm = " + fit[1] + "\n"),
            HostCalibration.toml(charged));
        assertEquals(8, HostCalibration.withOtherWork(p, 0, 0).eventNs(), "no per-event part: the observers' kept");
    }

    /** When the two runs do not determine both parts, the whole of the other work goes to one of them. */
    @Test
    void shouldPutAllOtherWorkInOnePartWhenTheRunsDoNotSplitIt() {
        final LoopTime few = loop(4_000, 4_000_000_000L, 80_000_000L);
        final long[] same = HostCalibration.otherWork(few, loop(8_000, 8_000_000_000L, 160_000_000L));
        assertTrue(Math.abs(same[0] - 20_000) <= 1,
            "as many events per byte work in both: all of it per event" + ": " + same[0]);
        assertEquals(0, same[1]);
        final long[] fewerPerEvent = HostCalibration.otherWork(few, loop(10_000, 4_000_000_000L, 60_000_000L));
        assertEquals(0, fewerPerEvent[0], "more events, less other work: no part per event");
        assertTrue(Math.abs(fewerPerEvent[1] - 17_500) <= 1,
            "all of it per byte work: 140 ms over 8 s" + ": " + fewerPerEvent[1]);
        assertNull(HostCalibration.otherWork(few, new LoopTime(1_000_000_000L, -1, 900_000_000L, 10)),
            "a CPU time the JVM did not measure: nothing to fit");
    }

    private static LoopTime loop(final long events, final long byteWorkNs, final long otherNs) {
        return new LoopTime(2 * (byteWorkNs + otherNs), byteWorkNs + otherNs, byteWorkNs, events);
    }
}
