package dev.kvtier.lab.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.calibrate.DiskRecheck;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The report's lines on how far the disk moved from its calibration during a sitting. */
class DiskMovesTest {
    private static final DeviceProfile P = new DeviceProfile("x", 1, 1, 1, 2_000_000_000L, 4_000_000_000L, 4);

    @Test
    void shouldGiveEachCellsRangeAndEveryRecheckWithoutAWarningWithinFivePerCent() {
        final DiskMoves m = new DiskMoves(P);
        m.add("before s1", Optional.of(new DiskRecheck.Figures(1_960_000_000L, 4_080_000_000L)));
        m.add("after the last", Optional.of(new DiskRecheck.Figures(2_020_000_000L, 3_920_000_000L)));
        final List<String> n = m.notes();
        assertEquals(2, n.size(), n.toString());
        assertTrue(n.get(0).endsWith("read -2 .. +1 %, write -2 .. +2 % of the calibration"), n.get(0));
        assertTrue(n.get(1).contains("before s1: read 1.96 GB/s (-2 %), write 4.08 GB/s (+2 %); after the last: "),
            n.get(1));
        assertEquals(0.02, Math.abs(m.largest()), 1e-9);
    }

    @Test
    void shouldWarnWhenEitherCellMovedBeyondFivePerCent() {
        final DiskMoves m = new DiskMoves(P);
        m.add("before s1", Optional.of(new DiskRecheck.Figures(2_000_000_000L, 3_600_000_000L)));
        m.add("before s2", Optional.empty());
        assertEquals(-0.10, m.largest(), 1e-9);
        assertTrue(m.notes().getLast().startsWith("WARNING: the disk moved up to -10 % from its calibration"),
            m.notes().toString());
    }

    /**
     * A scenario after a recheck beyond 5 % runs in virtual time on the rechecked bandwidths (latencies and parallelism
     * kept); within 5 %, or without a recheck, on the calibration; the notes name the scenarios simulated so.
     */
    @Test
    void shouldSimulateOnTheRecheckedBandwidthsOnlyWhenTheDiskMovedBeyondFivePerCent() {
        final DeviceProfile slower = DiskMoves.rechecked(P, Optional.of(new DiskRecheck.Figures(1_600_000_000L,
            2_800_000_000L))).orElseThrow();
        assertEquals(List.of(1_600_000_000L, 2_800_000_000L, 4L, 1L), List.of(slower.readBytesPerSec(),
            slower.writeBytesPerSec(), (long) slower.parallelism(), slower.readLatencyNs()));
        assertEquals("x/rechecked", slower.name());
        assertTrue(DiskMoves.rechecked(P, Optional.of(new DiskRecheck.Figures(2_090_000_000L, 3_820_000_000L)))
            .isEmpty(), "within 5 %: the calibration");
        assertTrue(DiskMoves.rechecked(P, Optional.of(new DiskRecheck.Figures(2_000_000_000L, 4_400_000_000L)))
            .isPresent(), "the write cell alone moved 10 %");
        assertTrue(DiskMoves.rechecked(P, Optional.empty()).isEmpty(), "no recheck: the calibration");
        final DiskMoves m = new DiskMoves(P);
        m.add("before s2", Optional.of(new DiskRecheck.Figures(1_600_000_000L, 2_800_000_000L)));
        m.simulatedRechecked("s2");
        assertTrue(m.notes().contains("simulated on the disk as rechecked before them (disk/LABEL.toml): s2"),
            m.notes().toString());
    }

    @Test
    void shouldSayWhenNoRecheckSucceeded() {
        final DiskMoves m = new DiskMoves(P);
        assertEquals(List.of(), m.notes(), "no recheck asked (a given profile): nothing to say");
        m.add("before s1", Optional.empty());
        assertEquals(List.of("the disk was not rechecked during the sitting (1 recheck(s) failed)"), m.notes());
    }
}
