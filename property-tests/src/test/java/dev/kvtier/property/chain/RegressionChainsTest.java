package dev.kvtier.property.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.server.KvServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Chains that caught core bugs, kept so that each stays fixed. Each failed on the core before its fix (checked by
 * running this suite against that commit's core classes) and passes on the fixed one.
 */
class RegressionChainsTest {
    /**
     * Liveness (invariant 16); found by {@code everyInvariantHoldsAfterEveryAction} once the chain had an index device,
     * and independently by {@code explore}; fixed in 9a3a690. Index I/Os shared the in-flight map that bounds data I/O
     * by {@code concurrentIos}, and an index completion submitted nothing. With one I/O allowed: the first store's
     * write is in flight, the commit's index write is submitted, the second store's write queues; the data write
     * completes but finds the slot taken by the index write; the index write completes and submits nothing; the
     * queued write is never submitted and the drain at the chain's end never finishes. Shrunk chain (either mode):
     * {@code allocate 2 keys of prompt 0 model1, save unsaved request (choice 0)}.
     */
    @Test
    void shouldSubmitTheDataIoQueuedBehindAnIndexIo() {
        for (final boolean durable : new boolean[] {false, true}) {
            final Knobs oneIo = new Knobs(1, 2, 0, 2, 1, false, 1, 1, 1, 1, 1, 1, false, 1, false, false, 1, 2, 0,
                false, durable, false, false);
            new CoreHarness(oneIo).run(List.of(new Step.Allocate(0, 2, 1), new Step.Save(0, false, false))).finish();
        }
    }

    /**
     * Invariant 15, durable mode; found by {@code checkpointsAndLapsSurviveCrashes} on the core of f329a2d (and by the
     * core's own index tests; fixed in b65bc52). The COMMIT record that filled half the log area started a checkpoint
     * at once, before its chunk was marked logged: the checkpoint's snapshot left the chunk out and the new lap
     * dropped its record, yet the checkpoint made its commit durable and acknowledged. A crash then lost it. Shrunk
     * chain, a ring of 3 slots: {@code churn through 1 index log lap, crash (seed 0)}; the violation: "key c1273
     * (allocation 1274, slots 1+1) was committed durably before crash 1 and is not in the recovered index".
     */
    @Test
    void shouldKeepTheCommitWhoseRecordStartsACheckpoint() {
        final Knobs ringOfThree = new Knobs(1, 1, 0, 3, 1, false, 1, 1, 1, 1, 1, 1, false, 1, false, false, 1, 1, 0,
            false, true, true, false);
        final CoreHarness h = new CoreHarness(ringOfThree);
        h.run(List.of(new Step.Churn(1, false, false), new Step.Crash(0, false))).finish();
        assertEquals(3, h.durability().survivorsChecked(), "the ring's three durable commits checked after the crash");
    }

    /**
     * Invariant 15 as a caller sees it, durable mode; found by every chain property's client audit on the core of
     * f329a2d (and by the core's own tests; fixed in b65bc52). A durable commit that ended as a late commit (its
     * allocation evicted before it was durable) or was refused was still reported accepted by the client, so its
     * caller took for durable a key that was never committed. Shrunk chain, a ring of 2 slots: {@code allocate 1 keys
     * of prompt 0 model1, save unsaved request (choice 0), allocate 2 keys of prompt 1 model1}; the violation: "the
     * save of req1 reported [p0.b0@slot0 (alloc 1)] accepted, but no durable commit of it was acknowledged".
     */
    @Test
    void shouldNotReportALateDurableCommitAccepted() {
        final Knobs ringOfTwo = new Knobs(1, 1, 0, 2, 1, false, 1, 1, 1, 1, 1, 1, false, 1, false, false, 2, 2, 0,
            false, true, false, false);
        new CoreHarness(ringOfTwo).run(List.of(new Step.Allocate(0, 1, 1), new Step.Save(0, false, false),
            new Step.Allocate(1, 2, 1))).finish();
    }

    /**
     * Invariant 15, durable mode: a record of a crashed life replayed after a second crash; built by hand with
     * chosen crash fates (the random chains do not line records up this exactly); fixed in b65bc52, where a
     * recovering open starts a new epoch. Before, a recovering open kept the checkpoint's epoch, restarted the
     * sequence at the first record it could not read, and wrote the new lap from the log area's start again; records
     * of the crashed life past the new lap's end kept their (epoch, sequence) and CRC, and once the new lap ended
     * exactly where one began, with the sequence it carried, the next recovery read on into it. Allocation ids start
     * again from the same point after such a recovery, so a replayed EVICT names an allocation of the new life.
     *
     * <p>Slots of 4 KiB, two per key, a ring of 32 chunks. Life 1: 32 keys saved (ids 1..32), 14 more (ids 33..46,
     * evicting 1..14), their data written and flushed while the index device holds its first write, so the lap gets
     * 46 COMMIT records of 79 B and 14 EVICT records of 33 B, exactly 4096 B; one more allocation (id 47) evicts id
     * 15: EVICT 15 is record 61, at 4096. The index writes complete, its FLUSH does not: power fails, the log's first
     * page is lost and its second reaches the medium. The restart recovers nothing from the lap and, ids again from 1,
     * life 2 does the same with every I/O completed: its 60 records end at 4096, and allocation 15 is a live,
     * acknowledged durable commit. Power fails again; the old recovery read life 2's 60 records, then life 1's EVICT
     * 15, and dropped allocation 15 ("key p1.b6 (allocation 15, slots 28+2) was committed durably before crash 2 and
     * is not in the recovered index").
     */
    @Test
    void shouldNotReplayARecordOfACrashedLifeAfterASecondCrash() {
        assertEquals(4096, 46 * (IndexCodec.RECORD_HEADER_BYTES + IndexCodec.chunkBytes(2))
            + 14 * (IndexCodec.RECORD_HEADER_BYTES + 8), "46 COMMITs of two-slot chunks and 14 EVICTs fill a page");
        final Knobs knobs = new Knobs(1, 24, 0, 64, 20, false, 4, 4, 4, 4, 16, 2, false, 2, false, false, 6, 8, 0,
            false, true, true, false);
        final CoreHarness h = new CoreHarness(knobs);
        final long log = KvServer.indexLayout(h.config).logOffset();
        fortySixKeys(h, false);
        h.allocate(5, 7, 1); // p5.b6: allocation 47 evicts allocation 15, record 61 at 4096
        h.completeIndexIo(2); // the first index write, then one of the whole lap; its FLUSH stays in flight
        h.crash((seq, page) -> ControlledDevice.PageFate.WRITTEN,
            (seq, page) -> page == log ? ControlledDevice.PageFate.LOST : ControlledDevice.PageFate.WRITTEN,
            "the log's first page lost, its second written", false);
        fortySixKeys(h, true);
        h.crash(0, true);
        h.finish();
        assertEquals(32, h.durability().survivorsChecked(), "life 2's 32 live durable commits checked after crash 2");
    }

    /** Allocates and saves 32 + 14 keys; completes data I/O only (life 1) or every I/O (life 2). */
    private static void fortySixKeys(final CoreHarness h, final boolean everyIo) {
        for (int p = 0; p < 4; p++) {
            h.allocate(p, 8, 1);
            h.save(0, false, false);
        }
        settle(h, everyIo);
        h.allocate(4, 8, 1);
        h.allocate(5, 6, 1);
        h.save(0, false, false);
        h.save(0, false, false);
        settle(h, everyIo);
    }

    private static void settle(final CoreHarness h, final boolean everyIo) {
        for (int i = 0; i < 6; i++) {
            h.completeAllOf(true);
            if (everyIo) {
                h.completeAllOf(false);
            }
        }
    }
}
