package dev.kvtier.sim.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.sim.run.SimModel;
import dev.kvtier.sim.run.SimRun;
import dev.kvtier.sim.run.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The content and per-event costs: charged when a profile sets them, and nothing changes when it does not. */
class HostCostModelTest {
    private static final HostCostProfile J = HostCostProfile.JAVA_CORE;

    @Test
    void shouldChargeNothingNewWhenTheProfileLeavesTheNewCostsAtZero() {
        final HostCostProfile zeros = new HostCostProfile("zeros", J.spanNs(), J.entryNs(), J.ioSubmitNs(),
            J.ioCompleteNs(), J.requestNs(), J.memcpyBytesPerSec(), J.dmaBytesPerSec(), true, 0, 0, 0, 0);
        assertEquals(run(J).eventDigest(), run(zeros).eventDigest());
    }

    /** A cost per copy holds the server thread for that long more at each copy it makes. */
    @Test
    void shouldChargeEachCopyItsCostBesidesItsBytes() {
        final RunReport base = run(J);
        final HostCostProfile perCopy = new HostCostProfile("per-copy", J.spanNs(), J.entryNs(), J.ioSubmitNs(),
            J.ioCompleteNs(), J.requestNs(), J.memcpyBytesPerSec(), J.dmaBytesPerSec(), true, 0, 0, 0, 0, false, 0,
            100_000);
        final RunReport r = run(perCopy);
        assertTrue(r.ok(), r.violation());
        assertNotEquals(base.eventDigest(), r.eventDigest());
        assertTrue(r.metrics().serverBusyNanos() >= base.metrics().serverBusyNanos() + 100_000L * 10,
            "at least ten copies on the server thread, 100 us each: " + base.metrics().serverBusyNanos() + " -> "
                + r.metrics().serverBusyNanos());
        assertEquals(2 * HostCostProfile.chargeNs(1 << 20, J.memcpyBytesPerSec()) + 2 * 100_000,
            perCopy.copyNs(1 << 20, J.memcpyBytesPerSec()) + perCopy.copyNs(1 << 20, J.memcpyBytesPerSec()));
    }

    @Test
    void shouldChargeChecksumsAndEventsOnTheServerThread() {
        final RunReport base = run(J);
        final RunReport checksums = run(with(1_000_000_000L, 0, 0, 0));
        final RunReport events = run(with(0, 0, 0, 10_000));
        for (final RunReport r : List.of(checksums, events)) {
            assertTrue(r.ok(), r.violation());
            assertTrue(r.metrics().serverBusyNanos() > base.metrics().serverBusyNanos(), r.scenario());
            assertNotEquals(base.eventDigest(), r.eventDigest());
        }
        // Every stored slot is checksummed once (64 KiB slots at 1 GB/s: 65.6 us each), so at least that much.
        final long slotNs = HostCostProfile.chargeNs(Specs.SLOT, 1_000_000_000L);
        final long storedSlots = base.metrics().storedBytes() / Specs.SLOT;
        assertTrue(checksums.metrics().serverBusyNanos() - base.metrics().serverBusyNanos() >= storedSlots * slotNs,
            "stored " + storedSlots + " slots");
        // Every event costs 10 us: the busy time grows by at least that much for each event a step emitted.
        assertTrue(events.metrics().serverBusyNanos() - base.metrics().serverBusyNanos() >= 10_000L * 100);
    }

    /**
     * The workload's check of loaded bytes and its fill of computed slots are the engine's work (outside any server
     * input): the engine's worker pays them, so the phase whose requests do them takes longer to its first tokens. A
     * fill overlaps the simulated GPU's forward pass (it is the forward's output): only a fill slower than the forward
     * (1 MB/s here) delays the step.
     */
    @Test
    void shouldChargeTheWorkloadsChecksAndStampsToTheEngine() {
        final RunReport base = run(J);
        final RunReport checks = run(with(0, 100_000_000L, 0, 0));
        final RunReport stamps = run(with(0, 0, 1_000_000L, 0));
        assertTrue(checks.ok(), checks.violation());
        assertTrue(stamps.ok(), stamps.violation());
        assertNotEquals(base.eventDigest(), checks.eventDigest());
        assertNotEquals(base.eventDigest(), stamps.eventDigest());
        assertTrue(ttftMean(checks, "warm") > ttftMean(base, "warm"), "loads are checked in the warm phase");
        assertTrue(ttftMean(stamps, "cold") > ttftMean(base, "cold"), "computed slots are filled in the cold phase");
    }

    /**
     * kvtier's real mode runs the engine's work on the server's one thread: the same costs then take turns with the
     * server instead of overlapping it: the server's calls wait behind the engine's checks and copies, the warm
     * phase takes longer and its requests reach their first tokens later; what is stored does not change.
     */
    @Test
    void shouldMakeEngineAndServerTakeTurnsWhenTheyShareOneThread() {
        final HostCostProfile own = with(0, 200_000_000L, 200_000_000L, 0);
        final HostCostProfile shared = new HostCostProfile("t-shared", own.spanNs(), own.entryNs(),
            own.ioSubmitNs(), own.ioCompleteNs(), own.requestNs(), own.memcpyBytesPerSec(), own.dmaBytesPerSec(),
            true, own.checksumBytesPerSec(), own.verifyBytesPerSec(), own.stampBytesPerSec(), own.eventNs(), true);
        final RunReport apart = run(own);
        final RunReport turns = run(shared);
        assertTrue(apart.ok(), apart.violation());
        assertTrue(turns.ok(), turns.violation());
        assertNotEquals(apart.eventDigest(), turns.eventDigest());
        // The warm phase's loads are checked on the thread that serves the next loads.
        assertTrue(ttftMean(turns, "warm") > ttftMean(apart, "warm"),
            ttftMean(turns, "warm") + " vs " + ttftMean(apart, "warm"));
        assertTrue(turns.metrics().warmPhaseNanos() > apart.metrics().warmPhaseNanos(), "warm phase");
        assertEquals(apart.metrics().storedBytes(), turns.metrics().storedBytes());
    }

    /**
     * A store checksums each slot right after copying it into L1, a read-back checksums a slot the device wrote: with
     * {@code checksumCopiedBytesPerSec} set, the first costs that rate and the second still costs
     * {@code checksumBytesPerSec}.
     */
    @Test
    void shouldChargeAStoresChecksumAtTheCopiedRateAndAReadBacksAtTheOther() {
        final RunReport base = run(J);
        final RunReport oneRate = run(with(1_000_000_000L, 0, 0, 0));
        final RunReport copiedFree = run(new HostCostProfile("t-copied", J.spanNs(), J.entryNs(), J.ioSubmitNs(),
            J.ioCompleteNs(), J.requestNs(), J.memcpyBytesPerSec(), J.dmaBytesPerSec(), true, 1_000_000_000L, 0, 0, 0,
            false, 1_000_000_000_000_000L));
        assertTrue(copiedFree.ok(), copiedFree.violation());
        final long slotNs = HostCostProfile.chargeNs(Specs.SLOT, 1_000_000_000L);
        final long storedSlots = base.metrics().storedBytes() / Specs.SLOT;
        final long saved = oneRate.metrics().serverBusyNanos() - copiedFree.metrics().serverBusyNanos();
        assertTrue(saved >= storedSlots * (slotNs - 1) * 9 / 10, "stored " + storedSlots + " slots, saved " + saved);
        assertTrue(base.metrics().l2Reads() > 0, "the run reads slots back from L2");
        final long readBackNs = copiedFree.metrics().serverBusyNanos() - base.metrics().serverBusyNanos();
        assertTrue(readBackNs >= base.metrics().l2Reads() * slotNs * 9 / 10, "read-backs still cost 1 GB/s: "
            + readBackNs + " ns for " + base.metrics().l2Reads() + " reads");
    }

    /**
     * The loop's other work that grows with its byte work: at 1,000,000 millionths every copy and checksum holds the
     * server twice as long, so the busy time grows by at least the checksums' own charge again.
     */
    @Test
    void shouldChargeTheOtherWorkInProportionToTheByteWork() {
        final HostCostProfile checksums = with(1_000_000_000L, 0, 0, 0);
        final HostCostProfile doubled = new HostCostProfile("t-other", J.spanNs(), J.entryNs(), J.ioSubmitNs(),
            J.ioCompleteNs(), J.requestNs(), J.memcpyBytesPerSec(), J.dmaBytesPerSec(), true, 1_000_000_000L, 0, 0,
            0, false, 0, 0, HostCostProfile.OTHER_WORK_PPM_MAX);
        final RunReport once = run(checksums);
        final RunReport twice = run(doubled);
        assertTrue(twice.ok(), twice.violation());
        assertNotEquals(once.eventDigest(), twice.eventDigest());
        final long slotNs = HostCostProfile.chargeNs(Specs.SLOT, 1_000_000_000L);
        final long storedSlots = once.metrics().storedBytes() / Specs.SLOT;
        final long more = twice.metrics().serverBusyNanos() - once.metrics().serverBusyNanos();
        assertTrue(more >= storedSlots * slotNs * 9 / 10, "stored " + storedSlots + " slots, " + more + " ns more");
        assertEquals(2_000_000, doubled.withOtherWork(1_000_000));
    }

    private static double ttftMean(final RunReport r, final String phase) {
        return r.metrics().ttftNanos().get(phase).mean();
    }

    private static HostCostProfile with(final long checksum, final long verify, final long stamp, final long eventNs) {
        return new HostCostProfile("t", J.spanNs(), J.entryNs(), J.ioSubmitNs(), J.ioCompleteNs(), J.requestNs(),
            J.memcpyBytesPerSec(), J.dmaBytesPerSec(), true, checksum, verify, stamp, eventNs);
    }

    private static RunReport run(final HostCostProfile host) {
        return new SimRun(Specs.small(8, 2), new SimModel(DeviceProfile.CI_EXT4, host, 10_000_000), 1, List.of())
            .run();
    }
}
