package dev.kvtier.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code durable} commit mode: a key becomes visible only after its L2 write, a data-device flush, and its COMMIT
 * record's index write and index flush; a crash at any point before that never makes it visible with wrong bytes, and
 * a crash after it never loses it.
 */
class DurableCommitTest {
    private static final long SLOT = 4096;

    private static CrashRig rig() {
        return CrashRig.formatted(CrashRig.config(SLOT, 8, 16, CommitMode.DURABLE));
    }

    /** One durable save of key "k" through a client, stopped after {@code steps} of its five I/Os completed. */
    private static final class Save {
        final CrashRig rig = rig();
        final KvClient client = rig.client();
        final AllocationRef ref = rig.claimOne("k");
        final byte[] bytes = CrashRig.pattern(42, SLOT);
        final CrashRig.Heard heard = rig.save(client, 7, ref, bytes);
        int done;

        /** Completes the next I/O of the commit path, checking that it is the one expected. */
        void step() {
            final IoRequest r = switch (done) {
                case 0 -> only(rig.data, IoOp.WRITE);
                case 1 -> only(rig.data, IoOp.FLUSH);
                case 2 -> only(rig.index, IoOp.WRITE);
                case 3 -> only(rig.index, IoOp.FLUSH);
                default -> throw new AssertionError("no step " + done);
            };
            (done < 2 ? rig.data : rig.index).complete(r.ioId());
            done++;
        }

        void stepTo(final int n) {
            while (done < n) {
                step();
            }
        }

        private IoRequest only(final ManualDevice d, final IoOp op) {
            final ManualDevice other = d == rig.data ? rig.index : rig.data;
            assertEquals(0, other.inFlightCount(), "step " + done + ": nothing in flight on the other device");
            assertEquals(1, d.inFlightCount(), "step " + done + ": one I/O in flight");
            final IoRequest r = d.inFlight().getFirst();
            assertEquals(op, r.op(), "step " + done);
            return r;
        }
    }

    @Test
    void shouldBecomeVisibleOnlyOnceTheIndexFlushCompletes() {
        final Save s = new Save();
        assertEquals(List.of(7L), s.heard.released, "the request is released once staged");
        final CoreEvent.CommitPending pending = s.rig.events.of(CoreEvent.CommitPending.class).getFirst();
        assertEquals(1, pending.allocations());
        assertEquals(1, pending.waitingWrites());
        assertEquals(List.of(s.ref), s.rig.events.of(CoreEvent.CommitRequested.class).getFirst().refs());
        for (int step = 0; step < 4; step++) {
            assertFalse(s.rig.visible("k"), "not visible after " + step + " steps");
            assertTrue(s.heard.committed.isEmpty(), "no committed callback after " + step + " steps");
            assertTrue(s.rig.events.of(CoreEvent.Committed.class).isEmpty());
            final CrashRig.Loaded l = s.rig.load(s.ref);
            assertEquals(LoadFailure.NOT_COMMITTED, l.result().get().failure(), "no load before visible");
            if (step == 2) {
                assertEquals(s.rig.layout().logOffset(), s.rig.index.inFlight().getFirst().fileOffset(),
                    "the COMMIT record goes to the log area");
            }
            s.step();
        }
        assertTrue(s.rig.visible("k"));
        assertEquals(List.of(7L), s.heard.committed);
        assertEquals(List.of(new CoreEvent.Committed(s.ref.key(), s.ref.allocationId())),
            s.rig.events.of(CoreEvent.Committed.class));
        final List<CoreEvent> all = s.rig.events.all();
        int lastIndexFlush = -1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) instanceof CoreEvent.IndexIoCompleted c && c.op() == IoOp.FLUSH) {
                lastIndexFlush = i;
            }
        }
        final int committed = s.rig.events.indexOf(e -> e instanceof CoreEvent.Committed);
        assertTrue(lastIndexFlush >= 0 && committed > lastIndexFlush, "published after the index flush completed");
        assertEquals(1, s.rig.server.tieredStore().durableCommits());
        assertEquals(0, s.rig.data.inFlightCount() + s.rig.index.inFlightCount());
        final CrashRig.Loaded l = s.rig.load(s.ref);
        assertTrue(l.ok());
        assertArrayEquals(s.bytes, l.bytes(0, SLOT));
    }

    @Test
    void shouldSurviveACrashOnlyAfterTheIndexFlushWhenUnflushedWritesAreLost() {
        for (int steps = 0; steps <= 4; steps++) {
            final Save s = new Save();
            s.stepTo(steps);
            final CrashRig next = s.rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
            next.openOrFail(true);
            assertEquals(steps == 4, next.visible("k"), "crash after " + steps + " steps");
            checkBytes(next, s.bytes);
        }
    }

    @Test
    void shouldNeverServeWrongBytesWhenUnflushedAndInFlightWritesReachTheMedia() {
        for (int steps = 0; steps <= 4; steps++) {
            final Save s = new Save();
            s.stepTo(steps);
            final CrashRig next = s.rig.crash((w, block) -> true);
            next.openOrFail(true);
            // The COMMIT record may reach the media once it was submitted (step 2), never before the data flush.
            assertEquals(steps >= 2, next.visible("k"), "crash after " + steps + " steps, everything kept");
            checkBytes(next, s.bytes);
        }
    }

    @Test
    void shouldNeverServeWrongBytesWhenOnlyTheIndexSurvives() {
        for (int steps = 0; steps <= 4; steps++) {
            final Save s = new Save();
            s.stepTo(steps);
            final CrashRig next = s.rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED, (w, block) -> true);
            next.openOrFail(true);
            checkBytes(next, s.bytes);
            if (steps == 4) {
                assertTrue(next.visible("k"), "a durable commit is never lost");
            }
        }
    }

    /** If k is visible, a load returns exactly its bytes. */
    private static void checkBytes(final CrashRig next, final byte[] bytes) {
        final AllocationRef k = next.found("k");
        if (k == null) {
            return;
        }
        final CrashRig.Loaded l = next.load(k);
        next.settle();
        assertTrue(l.ok(), "a visible durable key loads: " + l.result().get());
        assertArrayEquals(bytes, l.bytes(0, SLOT));
    }

    @Test
    void shouldGroupCommitsThatBecameReadyDuringAFlush() {
        final CrashRig rig = rig();
        final List<AllocationRef> abc = rig.claim(1, "a", "b", "c");
        final byte[][] bytes = new byte[3][];
        final List<AtomicReference<Integer>> done = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            bytes[i] = rig.store(abc.get(i), i);
            done.add(rig.commit(abc.get(i)));
        }
        final IoRequest wa = rig.data.oldest(IoOp.WRITE, abc.get(0).fileOffset(SLOT));
        assertNotNull(wa, "each store has its own write");
        rig.data.complete(wa.ioId());
        final IoRequest f1 = rig.data.oldest(IoOp.FLUSH);
        assertNotNull(f1, "a's commit flushes at once");
        rig.data.completeAll(); // b's and c's writes complete: their commits wait for f1 to finish, then f2
        // Every data flush so far and the index path: finish them all.
        rig.settle();
        final long flushes = rig.data.history().stream().filter(r -> r.op() == IoOp.FLUSH).count();
        assertEquals(2, flushes, "one flush for a, one group flush for b and c");
        for (int i = 0; i < 3; i++) {
            assertEquals(1, done.get(i).get(), "commit " + i);
        }
        assertTrue(rig.visible("a") && rig.visible("b") && rig.visible("c"));
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(next.found("a"), next.found("b"), next.found("c"));
        next.settle();
        assertTrue(l.ok());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(bytes[i], l.bytes(i * SLOT, SLOT));
        }
    }

    @Test
    void shouldNotPublishACommitOnAFlushSubmittedBeforeItsWriteCompleted() {
        final CrashRig rig = rig();
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        rig.store(a, 1);
        rig.store(b, 2);
        final AtomicReference<Integer> da = rig.commit(a);
        final AtomicReference<Integer> db = rig.commit(b);
        rig.data.complete(rig.data.oldest(IoOp.WRITE, a.fileOffset(SLOT)).ioId());
        final IoRequest f1 = rig.data.oldest(IoOp.FLUSH);
        rig.data.complete(rig.data.oldest(IoOp.WRITE, b.fileOffset(SLOT)).ioId()); // after f1 was submitted
        rig.data.complete(f1.ioId());
        rig.index.completeAll(); // a's record: written and flushed
        assertEquals(1, da.get());
        assertTrue(rig.visible("a"));
        assertNull(db.get(), "b's write completed after f1 was submitted: f1 does not cover it");
        assertFalse(rig.visible("b"));
        assertNotNull(rig.data.oldest(IoOp.FLUSH), "b gets its own flush");
        rig.settle();
        assertEquals(1, db.get());
        assertTrue(rig.visible("b"));
    }

    @Test
    void shouldCommitAtOnceWhenTheWritesAlreadyFinished() {
        final CrashRig rig = rig();
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        rig.data.completeAll();
        final AtomicReference<Integer> done = rig.commit(a);
        assertEquals(0, rig.events.of(CoreEvent.CommitPending.class).getFirst().waitingWrites());
        assertNotNull(rig.data.oldest(IoOp.FLUSH));
        assertFalse(rig.visible("a"));
        rig.settle();
        assertEquals(1, done.get());
        assertTrue(rig.visible("a"));
    }

    @Test
    void shouldRefuseACommitWhoseIndexWriteFailsAndHealWithACheckpoint() {
        final CrashRig rig = rig();
        final AllocationRef k = rig.claimOne("k");
        rig.store(k, 1);
        final AtomicReference<Integer> done = rig.commit(k);
        rig.data.completeAll(); // write, then flush
        rig.data.completeAll();
        final IoRequest w = rig.index.oldest(IoOp.WRITE);
        assertEquals(rig.layout().logOffset(), w.fileOffset());
        rig.index.fail(w.ioId());

        assertEquals(0, done.get(), "refused: nothing became visible");
        assertFalse(rig.visible("k"));
        assertEquals(List.of(new CoreEvent.IndexFailed(-5)), rig.events.of(CoreEvent.IndexFailed.class));
        final CoreEvent.CommitRefused refused = rig.events.of(CoreEvent.CommitRefused.class).getFirst();
        assertEquals(k.key(), refused.key());
        assertEquals(k.allocationId(), refused.allocationId());
        final CoreEvent.RingEvicted ev = rig.events.of(CoreEvent.RingEvicted.class).getFirst();
        assertEquals(RingEvictReason.NOT_DURABLE, ev.reason());
        assertFalse(ev.committed());
        assertFalse(rig.server.directory().isCurrent(k), "the chunk is evicted");
        assertEquals(1, rig.server.tieredStore().refusedCommits());
        assertTrue(rig.events.of(CoreEvent.Committed.class).isEmpty());

        // The log heals: a checkpoint (without k) goes to the slot that does not hold the newest one.
        assertTrue(rig.server.directory().indexLog().broken());
        final IoRequest cp = rig.index.oldest(IoOp.WRITE);
        assertNotNull(cp, "a checkpoint is tried at once");
        assertEquals(rig.layout().checkpointOffset(1), cp.fileOffset());
        rig.index.completeAll();
        assertFalse(rig.server.directory().indexLog().broken());
        final CoreEvent.IndexCheckpointed healed = rig.events.of(CoreEvent.IndexCheckpointed.class).getLast();
        assertEquals(0, healed.chunks());

        final AllocationRef k2 = rig.claimOne("k2");
        final byte[] b2 = rig.store(k2, 2);
        final AtomicReference<Integer> done2 = rig.commit(k2);
        rig.settle();
        assertEquals(1, done2.get());
        assertTrue(rig.visible("k2"));
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertFalse(next.visible("k"));
        final CrashRig.Loaded l = next.load(next.found("k2"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(b2, l.bytes(0, SLOT));
    }

    @Test
    void shouldRefuseACommitWhoseIndexFlushFails() {
        final CrashRig rig = rig();
        final AllocationRef k = rig.claimOne("k");
        rig.store(k, 1);
        final AtomicReference<Integer> done = rig.commit(k);
        rig.data.completeAll();
        rig.data.completeAll();
        rig.index.completeOldest(); // the record is written...
        final IoRequest flush = rig.index.oldest(IoOp.FLUSH);
        assertNotNull(flush);
        rig.index.fail(flush.ioId()); // ...but not flushed
        assertEquals(0, done.get());
        assertFalse(rig.visible("k"));
        assertEquals(RingEvictReason.NOT_DURABLE, rig.events.of(CoreEvent.RingEvicted.class).getFirst().reason());
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertFalse(next.visible("k"));
    }

    @Test
    void shouldHealEvenWhenTheFirstHealingCheckpointFails() {
        final CrashRig rig = rig();
        final AllocationRef k = rig.claimOne("k");
        rig.store(k, 1);
        rig.commit(k);
        rig.data.completeAll();
        rig.data.completeAll();
        rig.index.fail(rig.index.oldest(IoOp.WRITE).ioId());
        rig.index.fail(rig.index.oldest(IoOp.WRITE).ioId()); // the healing checkpoint fails too
        assertEquals(2, rig.events.of(CoreEvent.IndexFailed.class).size());
        assertEquals(0, rig.index.inFlightCount(), "nothing is retried until the next append or wait");
        final AllocationRef k2 = rig.claimOne("k2");
        final byte[] b2 = rig.store(k2, 2);
        final AtomicReference<Integer> done2 = rig.commit(k2);
        rig.settle();
        assertEquals(1, done2.get());
        assertTrue(rig.visible("k2"));
        assertFalse(rig.visible("k"));
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertFalse(next.visible("k"));
        final CrashRig.Loaded l = next.load(next.found("k2"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(b2, l.bytes(0, SLOT));
    }

    @Test
    void shouldRefuseACommitWhoseDataFlushFails() {
        final CrashRig rig = rig();
        final AllocationRef k = rig.claimOne("k");
        rig.store(k, 1);
        final AtomicReference<Integer> done = rig.commit(k);
        rig.data.completeOldest();
        final IoRequest flush = rig.data.oldest(IoOp.FLUSH);
        rig.data.fail(flush.ioId());
        assertEquals(0, done.get());
        assertFalse(rig.visible("k"));
        assertEquals(1, rig.events.of(CoreEvent.CommitRefused.class).size());
        assertEquals(RingEvictReason.NOT_DURABLE, rig.events.of(CoreEvent.RingEvicted.class).getFirst().reason());
        assertEquals(0, rig.index.inFlightCount(), "no COMMIT record for data that is not durable");
        assertTrue(rig.index.history().stream().noneMatch(r -> r.fileOffset() == rig.layout().logOffset()));
        // The next commit is fine.
        final AllocationRef k2 = rig.claimOne("k2");
        rig.store(k2, 2);
        final AtomicReference<Integer> done2 = rig.commit(k2);
        rig.settle();
        assertEquals(1, done2.get());
    }

    @Test
    void shouldTreatAFailedDataWriteAsALateCommit() {
        final CrashRig rig = rig();
        final AllocationRef k = rig.claimOne("k");
        rig.store(k, 1);
        final AtomicReference<Integer> done = rig.commit(k);
        rig.data.fail(rig.data.oldest(IoOp.WRITE).ioId());
        rig.settle();
        assertEquals(0, done.get());
        assertFalse(rig.visible("k"));
        assertEquals(RingEvictReason.WRITE_FAILED, rig.events.of(CoreEvent.RingEvicted.class).getFirst().reason());
        assertEquals(1, rig.events.of(CoreEvent.LateCommit.class).size());
        assertTrue(rig.events.of(CoreEvent.Committed.class).isEmpty());
    }

    @Test
    void shouldTreatARingEvictionWhileWaitingAsALateCommit() {
        final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 4, 2, CommitMode.DURABLE));
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        final AtomicReference<Integer> done = rig.commit(a);
        rig.data.completeAll();
        rig.data.completeAll(); // a's COMMIT record is being written
        rig.claim(1, "b", "c"); // c evicts a
        rig.settle();
        assertEquals(0, done.get());
        assertFalse(rig.visible("a"));
        assertEquals(1, rig.events.of(CoreEvent.LateCommit.class).size());
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertFalse(next.visible("a"), "COMMIT(a) then EVICT(a)");
    }

    @Test
    void shouldLogLazilyAndNeverFlushInL1Mode() {
        final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 8, 16, CommitMode.L1));
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        final AtomicReference<Integer> done = rig.commit(a);
        assertEquals(1, done.get(), "l1 mode: visible at once");
        assertTrue(rig.visible("a"));
        assertTrue(rig.events.of(CoreEvent.CommitPending.class).isEmpty());
        final int flushesBefore = (int) rig.index.history().stream().filter(r -> r.op() == IoOp.FLUSH).count();
        rig.settle();
        assertEquals(flushesBefore, rig.index.history().stream().filter(r -> r.op() == IoOp.FLUSH).count(),
            "no index flush for a lazily logged commit");
        assertTrue(rig.data.history().stream().noneMatch(r -> r.op() == IoOp.FLUSH), "no data flush in l1 mode");
        assertEquals(1, rig.server.directory().indexLog().recordsAppended());
    }

    @Test
    void shouldNotReportARefusedDurableCommitAsAcceptedToTheClient() {
        final Save s = new Save();
        s.stepTo(2); // data written and flushed; the COMMIT record is being written
        s.rig.index.fail(s.rig.index.inFlight().getFirst().ioId());
        assertEquals(1, s.rig.events.of(CoreEvent.CommitRefused.class).size());
        assertFalse(s.rig.visible("k"));
        assertEquals(List.of(7L), s.heard.committed, "the listener hears about the request once");
        assertTrue(s.heard.accepted.isEmpty(), "a refused allocation is not reported as committed: "
            + s.heard.accepted);
        assertEquals(0, s.rig.events.of(CoreEvent.RequestCommitted.class).getFirst().acceptedKeys());
    }
}
