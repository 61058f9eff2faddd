package dev.kvtier.lab.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.realio.run.RecoveryCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The judge of a kill fails each way recovery can be wrong, and only then: a recovered set that no cut of the log
 * gives, a lost durable commit, a wrong byte, a chunk the run never made; and it accepts what the design allows (an
 * l1 commit lost, an in-flight durable commit recovered, an evicted chunk back because its EVICT record was not yet
 * written, a chunk whose load fails its checksum).
 */
class JudgeTest {
    /** Four one-slot allocations, claimed at events 1-4 and acknowledged at 11-14; 2 evicted at 20; killed at 30. */
    private static final List<String> LOG = List.of("opened 0", "alloc 1 0 1 1 0 1 101", "alloc 2 0 2 2 1 1 102",
        "alloc 3 0 3 3 2 1 103", "alloc 4 0 4 4 3 1 104", "commit 11 0 1 1", "commit 12 0 2 2", "commit 13 0 3 3",
        "commit 14 0 4 4", "evict 20 2", "kill 30 cold 1000");

    private static RecoveryCheck.Result recovered(final long... allocations) {
        final List<RecoveryCheck.Chunk> chunks = new ArrayList<>();
        for (final long a : allocations) {
            chunks.add(new RecoveryCheck.Chunk(new PrefixKey(0, a), 1, a, (int) a - 1, 1, RecoveryCheck.Outcome.LOADED,
                ""));
        }
        return new RecoveryCheck.Result(true, 0, 0, 1_000_000, chunks);
    }

    private static KillVerdict judge(final CommitMode mode, final List<String> log, final RecoveryCheck.Result r) {
        return Judge.judge(7, "cold+30", mode, AckLog.parse(log), r);
    }

    @Test
    void shouldAcceptEveryPrefixOfAnL1LogAndOnlyThose() {
        assertTrue(judge(CommitMode.L1, LOG, recovered()).ok(), "nothing: the cut before every record");
        assertTrue(judge(CommitMode.L1, LOG, recovered(1, 2)).ok(), "the cut after commit 2");
        assertTrue(judge(CommitMode.L1, LOG, recovered(1, 2, 3, 4)).ok(), "the cut before the eviction of 2");
        assertTrue(judge(CommitMode.L1, LOG, recovered(1, 3, 4)).ok(), "the whole log");
        final KillVerdict gap = judge(CommitMode.L1, LOG, recovered(1, 3));
        assertFalse(gap.prefix(), "3 without 2, which no cut gives (2 was still there when 3 was committed)");
        assertFalse(gap.ok());
        assertFalse(judge(CommitMode.L1, LOG, recovered(2, 3)).prefix(), "2 and 3 without 1");
    }

    @Test
    void shouldAllowAnL1CommitToBeLostButNeverADurableOne() {
        final KillVerdict l1 = judge(CommitMode.L1, LOG, recovered(1));
        assertTrue(l1.ok(), l1.failures().toString());
        assertEquals(0, l1.mustSurvive());
        assertEquals(2, l1.notRecovered(), "3 and 4 (2 was evicted)");
        final KillVerdict durable = judge(CommitMode.DURABLE, LOG, recovered(1));
        assertFalse(durable.ok());
        assertEquals(3, durable.mustSurvive(), "1, 3 and 4: 2 was evicted before the kill");
        assertEquals(2, durable.lost());
        assertTrue(durable.failures().getFirst().startsWith("lost: key"), durable.failures().toString());
        assertTrue(judge(CommitMode.DURABLE, LOG, recovered(1, 3, 4)).ok());
    }

    @Test
    void shouldHoldL1CommitsToTheClaimOnceAShutdownCompletedDurably() {
        final List<String> log = new ArrayList<>(LOG.subList(0, LOG.size() - 1));
        log.addAll(List.of("shutdown 25", "shutdown-done 27 durable", "kill 30 end 1000"));
        final KillVerdict v = judge(CommitMode.L1, log, recovered(1, 3));
        assertEquals(1, v.lost(), "4 was committed before a durable shutdown");
        assertFalse(v.ok());
    }

    @Test
    void shouldAcceptADurableCommitRecoveredBeforeItsAcknowledgement() {
        final List<String> log = List.of("alloc 1 0 1 1 0 1 101", "alloc 2 0 2 2 1 1 102", "commit 11 0 1 1",
            "kill 15 cold 1000");
        assertTrue(judge(CommitMode.DURABLE, log, recovered(1, 2)).ok(), "2's record was written, its ack not yet");
        assertFalse(judge(CommitMode.L1, log, recovered(1, 2)).prefix(), "in l1 mode a record comes with its ack");
    }

    @Test
    void shouldFailAWrongByteAndAChunkTheRunNeverMadeButNotAChecksumMiss() {
        final List<RecoveryCheck.Chunk> chunks = new ArrayList<>(recovered(1, 3).chunks());
        chunks.add(new RecoveryCheck.Chunk(new PrefixKey(0, 4), 1, 4, 3, 1, RecoveryCheck.Outcome.UNREADABLE,
            "CORRUPT"));
        final KillVerdict miss = judge(CommitMode.L1, LOG, new RecoveryCheck.Result(true, 0, 0, 1, chunks));
        assertTrue(miss.ok(), "a failed checksum is a miss: " + miss.failures());
        assertEquals(1, miss.unreadable());
        chunks.set(0, new RecoveryCheck.Chunk(new PrefixKey(0, 1), 1, 1, 0, 1, RecoveryCheck.Outcome.WRONG_BYTES,
            "slot 0 byte 8"));
        final KillVerdict wrong = judge(CommitMode.L1, LOG, new RecoveryCheck.Result(true, 0, 0, 1, chunks));
        assertEquals(1, wrong.wrongBytes());
        assertFalse(wrong.ok());
        final KillVerdict foreign = judge(CommitMode.L1, LOG, recovered(1, 3, 4, 9));
        assertFalse(foreign.ok(), "allocation 9 was never made");
        assertTrue(foreign.failures().getFirst().contains("never made"), foreign.failures().toString());
    }

    @Test
    void shouldFailAKillThatTheRunDidNotDieOf() {
        final KillVerdict v = judge(CommitMode.L1, LOG.subList(0, LOG.size() - 1), recovered(1, 3, 4));
        assertFalse(v.ok());
        assertTrue(v.failures().getFirst().contains("no kill line"), v.failures().toString());
    }
}
