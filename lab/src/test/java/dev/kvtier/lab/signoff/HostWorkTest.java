package dev.kvtier.lab.signoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real runs' byte work set against the host profile: a profile that overstates the host is called out. */
class HostWorkTest {
    private static final HostCostProfile HOST = new HostCostProfile("h", 1, 1, 1, 1, 1, 10_000_000_000L,
        10_000_000_000L, true, 5_000_000_000L, 0, 4_000_000_000L, 1, true, 0);

    private static ByteWork.Tally gbps(final double gbPerSec) {
        return new ByteWork.Tally(1_000_000_000L, Math.round(1e9 / gbPerSec), 10);
    }

    @Test
    void shouldSayWhichBandwidthTheProfileOverstatesAndByHowMuch() {
        final ByteWork.Tally none = ByteWork.Tally.NONE;
        final List<ByteWork> runs = List.of(new ByteWork(gbps(5), gbps(4.6), none, gbps(4), gbps(3)),
            new ByteWork(gbps(6), gbps(4.4), none, gbps(3.8), gbps(3)),
            new ByteWork(gbps(7), gbps(4.5), none, gbps(3.9), gbps(3)));
        final List<String> lines = HostWork.lines(HOST, runs);
        assertEquals(4, lines.size(), "no line for checksums after a copy: no run did one " + lines);
        final String copies = lines.get(0);
        assertTrue(copies.startsWith("copies: profile 10.00 GB/s, real runs 6.00 GB/s (5.00 .. 7.00, 3 run(s))"),
            copies);
        assertTrue(copies.contains("**the profile overstates it**") && copies.contains("(40 % less)"), copies);
        assertFalse(lines.get(1).contains("overstates"), "4.5 against 5.0 is within 15 %: " + lines.get(1));
        assertFalse(lines.get(2).contains("overstates"), "3.9 against 4.0: " + lines.get(2));
        assertTrue(lines.get(3).contains("profile not charged") && lines.get(3).contains("charges none of the 0.33 s"),
            lines.get(3));
    }

    /**
     * A profile with a cost per copy charges many small copies a lower bandwidth than its memcpy rate: the copies of a
     * per-slot run (1 GB in 1,000 copies of 1 MB, 100 us each: 0.1 + 0.1 s, 5 GB/s) are not taken as overstated.
     */
    @Test
    void shouldSetCopiesAgainstTheProfilesRateWithItsCostPerCopy() {
        final HostCostProfile perCopy = new HostCostProfile("h", 1, 1, 1, 1, 1, 10_000_000_000L, 10_000_000_000L, true,
            5_000_000_000L, 0, 4_000_000_000L, 1, true, 0, 100_000);
        final ByteWork.Tally none = ByteWork.Tally.NONE;
        final ByteWork.Tally copies = new ByteWork.Tally(1_000_000_000L, 200_000_000L, 1_000);
        final String line = HostWork.lines(perCopy, List.of(new ByteWork(copies, none, none, none, none))).getFirst();
        assertTrue(line.startsWith("copies: profile 5.00 GB/s, real runs 5.00 GB/s"), line);
        assertFalse(line.contains("overstates"), line);
        assertTrue(HostWork.lines(HOST, List.of(new ByteWork(copies, none, none, none, none))).getFirst()
            .contains("**the profile overstates it**"), "without the cost, 10 GB/s against 5");
        // A run's copies as a real per-slot run of pr90-evict-small makes them (14.5 GB in 3,423 copies, 1.72 s):
        // tens of gigabytes in nanoseconds do not fit a long.
        final ByteWork.Tally run = new ByteWork.Tally(14_495_514_624L, 1_720_000_000L, 3_423);
        final String real = HostWork.lines(perCopy, List.of(new ByteWork(run, none, none, none, none),
            new ByteWork(run, none, none, none, none))).getFirst();
        assertTrue(real.startsWith("copies: profile 8.09 GB/s, real runs 8.43 GB/s"), real);
    }

    @Test
    void shouldSayNothingWithoutRealRuns() {
        assertTrue(HostWork.lines(HOST, List.of()).isEmpty());
        assertTrue(HostWork.loopLines(HOST, List.of()).isEmpty());
        assertTrue(HostWork.loopLines(HOST, List.of(new LoopTime(1_000_000_000L, -1, 1, 1))).isEmpty(),
            "no run knew its time on a CPU");
    }

    /** The runs' other work beside what the profile charges for it: 2 % of 4 s and 10 us an event, against 1 %. */
    @Test
    void shouldSetTheLoopsOtherWorkAgainstWhatTheProfileChargesForIt() {
        final HostCostProfile p = new HostCostProfile("h", 1, 1, 1, 1, 1, 10_000_000_000L, 10_000_000_000L, true,
            5_000_000_000L, 0, 4_000_000_000L, 1_000, true, 0, 0, 10_000);
        final LoopTime run = new LoopTime(5_000_000_000L, 4_080_000_000L, 4_000_000_000L, 8_000);
        final List<String> lines = HostWork.loopLines(p, List.of(run, run));
        assertEquals(1, lines.size());
        assertTrue(lines.getFirst().startsWith("the loop's other work (on a CPU, besides the byte work): real runs 0.08"
            + " s a run (2.0 % of their byte work, 10.0 us an event; 2 run(s)); the profile charges about 0.05 s a run"
            + " for it (1000 ns an event, 1.00 % of the byte work); the loop was off a CPU 18 % of a run"),
            lines.getFirst());
    }
}
