package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Seeds that `kvtier explore` once failed, replayed exactly as it printed them: each must pass now. */
class ExploreFindingsTest {

    /**
     * pr90-evict-small seed 3 (durable mode, one I/O in flight): the index write of a durable commit took the only
     * I/O slot, and its completion did not submit the queued data write, so a store waiting for memory hung
     * (invariant 16). Index I/O is now outside the data I/O bound and its completion resubmits the queue.
     */
    @Test
    void shouldFinishSeed3OfTheDurableSwarm() {
        final CliRun r = CliRun.of("run", "pr90-evict-small", "--seed", "3", "--set", "core.coalesceStoreSpans=false",
            "--set", "core.commitMode=durable", "--set", "core.concurrentIos=1", "--set", "core.headroomRatio=20",
            "--set", "core.l1Fraction=0.25", "--set", "core.readBatchMax=8", "--set", "core.replacement=prefix-lru",
            "--set", "faults.corruptionsPerMillion=20000", "--set", "faults.crashAtEvent=-1", "--set",
            "faults.metaFullAfterWrites=0", "--set", "faults.misdirectsPerMillion=20000", "--set",
            "faults.readErrorsPerMillion=0", "--set", "faults.spikesPerMillion=0", "--set",
            "faults.writeErrorsPerMillion=50000", "--set", "sim.device=ci-ext4");
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    }
}
