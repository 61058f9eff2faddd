package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.memory.ByteWork;
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
}
