package dev.kvtier.lab.calibrate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When two calibration runs' byte work agree, and how the settled work reports its spread. */
class HostRunSettleTest {
    private static ByteWork work(final long copyNs, final long stampNs) {
        final ByteWork.Tally none = ByteWork.Tally.NONE;
        return new ByteWork(new ByteWork.Tally(1_000_000_000L, copyNs, 10), none, none,
            new ByteWork.Tally(1_000_000_000L, stampNs, 10), none);
    }

    @Test
    void shouldAgreeWithinThreePerCentOnEveryRateBothMeasured() {
        assertTrue(HostRun.agree(work(100_000_000L, 200_000_000L), work(102_000_000L, 197_000_000L)));
        assertFalse(HostRun.agree(work(100_000_000L, 200_000_000L), work(100_000_000L, 210_000_000L)),
            "fills 5 % apart");
        assertTrue(HostRun.agree(work(100_000_000L, 200_000_000L), new ByteWork(new ByteWork.Tally(1_000_000_000L,
            101_000_000L, 10), ByteWork.Tally.NONE, ByteWork.Tally.NONE, ByteWork.Tally.NONE, ByteWork.Tally.NONE)),
            "a kind one run did not measure is not compared");
    }

    private static final LoopTime LOOP = new LoopTime(1_000_000_000L, 900_000_000L, 880_000_000L, 1_000);

    @Test
    void shouldSumTheKeptRunsAndGiveEachRatesSpread() {
        final ByteWork a = work(100_000_000L, 200_000_000L);
        final ByteWork b = work(110_000_000L, 200_000_000L);
        final HostRun.Settled s = new HostRun.Settled(a.plus(b), a.plus(b), List.of(a, b), false, LOOP, LOOP);
        assertTrue(s.work().copy().bytes() == 2_000_000_000L && s.work().copy().ns() == 210_000_000L);
        final String d = s.describe();
        assertTrue(d.startsWith("byte work NOT settled after 3 pair(s) of runs (the first, a warm-up, not kept; 2 "
            + "kept): copy 9.09-10.00 GB/s (10.0 %)"), d);
    }
}
