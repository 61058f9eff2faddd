package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.sim.device.FaultPlan;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each fault kind of issue 8 fires in a whole simulated run and is handled as FaultPlan's javadoc claims: corrupt and
 * misdirected data is caught by the per-slot checksums (the load fails, the key is evicted, no wrong byte is served),
 * a full index disk stops persistence (l1 mode keeps serving; durable mode refuses commits) and every run finishes.
 */
class FaultKindsTest {
    private static final long FOREVER = Long.MAX_VALUE;

    /** Counts events by name, and a few of their outcomes. */
    private static final class Counts implements EventSink {
        final Map<String, Long> byName = new TreeMap<>();

        @Override
        public void emit(final CoreEvent e) {
            String name = e.getClass().getSimpleName();
            if (e instanceof CoreEvent.LoadFailed f) {
                name += "." + f.reason();
            } else if (e instanceof CoreEvent.RingEvicted r) {
                name += "." + r.reason();
            }
            byName.merge(name, 1L, Long::sum);
        }

        long of(final String name) {
            return byName.getOrDefault(name, 0L);
        }
    }

    private static SimSpec spec(final CommitMode mode, final FaultPlan faults) {
        final SimSpec s = Specs.small(12, 4);
        return new SimSpec("faults-" + mode, s.core().toBuilder().commitMode(mode).build(), s.device(), s.host(),
            s.workload(), s.maxEvents(), s.livenessBoundNs(), faults);
    }

    private static Counts run(final CommitMode mode, final FaultPlan faults, final SimRun[] out) {
        final Counts counts = new Counts();
        final SimRun run = new SimRun(spec(mode, faults), 5, List.of(counts));
        final RunReport r = run.run();
        assertNull(r.violation(), r.violation());
        assertEquals(0, r.metrics().wrongBytes(), "no wrong byte served");
        out[0] = run;
        return counts;
    }

    @Test
    void shouldCatchSilentCorruptionWithTheSlotChecksumsAndEvictTheKey() {
        final SimRun[] run = new SimRun[1];
        final Counts c = run(CommitMode.L1, new FaultPlan(0, 0, 0, 0, 1, FOREVER).withCorruptionsPerMillion(500_000),
            run);
        assertTrue(run[0].device().injectedCorruptions() > 0, "corruption was injected");
        assertTrue(c.of("ChecksumMismatch") > 0, "and caught on read: " + c.byName);
        assertEquals(c.of("ChecksumMismatch"), c.of("LoadFailed." + LoadFailure.CORRUPT), "each fails its load");
        assertEquals(c.of("ChecksumMismatch"), c.of("RingEvicted." + RingEvictReason.CORRUPT), "and evicts its key");
    }

    @Test
    void shouldCatchMisdirectedWritesWithTheSlotChecksums() {
        final SimRun[] run = new SimRun[1];
        final Counts c = run(CommitMode.L1, new FaultPlan(0, 0, 0, 0, 1, FOREVER).withMisdirectsPerMillion(500_000),
            run);
        assertTrue(run[0].device().injectedMisdirects() > 0, "writes were misdirected");
        assertTrue(c.of("ChecksumMismatch") > 0, "and caught on read: " + c.byName);
        assertTrue(c.of("RingEvicted." + RingEvictReason.CORRUPT) > 0);
    }

    @Test
    void shouldKeepServingInL1ModeWhenTheIndexDiskIsFull() {
        final SimRun[] run = new SimRun[1];
        final Counts c = run(CommitMode.L1, new FaultPlan(0, 0, 0, 0, 1, FOREVER).withMetaFullAfterWrites(4), run);
        assertTrue(run[0].indexDevice().injectedMetaFull() > 0, "index writes failed with ENOSPC");
        assertTrue(c.of("IndexFailed") > 0, "the core saw it: " + c.byName);
        assertEquals(0, c.of("CommitRefused"), "l1 mode commits regardless");
        assertTrue(c.of("Promoted") + c.of("LoadHit") > 0, "and keeps serving loads");
    }

    @Test
    void shouldRefuseDurableCommitsWhileTheIndexDiskIsFullAndRecoverAfter() {
        final SimRun[] run = new SimRun[1];
        // One index write fits: the checkpoint that opens the index; every later one fails.
        final Counts full = run(CommitMode.DURABLE,
            new FaultPlan(0, 0, 0, 0, 1, FOREVER).withMetaFullAfterWrites(1), run);
        assertTrue(full.of("CommitRefused") > 0, "durable commits refused: " + full.byName);
        assertEquals(0, full.of("Committed"), "nothing became visible without a durable record");
        final long half = new SimRun(spec(CommitMode.DURABLE, FaultPlan.NONE), 5, List.of()).run().virtualNanos() / 2;
        final Counts healed = run(CommitMode.DURABLE,
            new FaultPlan(0, 0, 0, 0, 1, half).withMetaFullAfterWrites(1), run);
        assertTrue(healed.of("CommitRefused") > 0 && healed.of("Committed") > 0,
            "refused while full, committed once the disk had room again: " + healed.byName);
    }

    @Test
    void shouldSurviveACrashUnderCorruptionAndIndexFaultsInDurableMode() {
        final SimRun[] run = new SimRun[1];
        final FaultPlan plan = new FaultPlan(20_000, 20_000, 0, 0, 1, FOREVER).withCorruptionsPerMillion(50_000)
            .withMisdirectsPerMillion(20_000).withCrashAtEvent(400);
        final Counts c = run(CommitMode.DURABLE, plan, run);
        assertEquals(1, run[0].crashChecker().crashes());
        assertTrue(c.of("ChunkRecovered") > 0, "the restarted core recovered chunks: " + c.byName);
    }
}
