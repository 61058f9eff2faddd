package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Periodic checkpoints: once a lap of the log passes half the log area, the live logged state is checkpointed and the
 * log restarts; recovery afterwards returns exactly the live committed set, and a crash in the middle of a checkpoint
 * loses nothing that was durable.
 */
class IndexCheckpointTest {
    private static final long SLOT = 4096;
    private static final int RING = 8;
    private static final int MAX_KEYS = 20_000;

    /** A driver of one-slot keys through a small ring: each key evicts the oldest once the ring is full. */
    private static final class Churn {
        final CrashRig rig;
        final Map<AllocationRef, byte[]> bytes = new HashMap<>();
        int keys;
        boolean indexFirst;

        Churn(final CommitMode mode) {
            rig = CrashRig.formatted(CrashRig.config(SLOT, 4, RING, mode));
        }

        /** Periodic checkpoints so far (the log's counter includes open's). */
        int checkpoints() {
            return Math.toIntExact(rig.server.directory().indexLog().checkpoints()) - 1;
        }

        /** Claims, stores and commits one key; settles every I/O when {@code settle}. Returns the commit holder. */
        AtomicReference<Integer> next(final boolean settle) {
            final AllocationRef ref = rig.claimOne("key-" + keys);
            if (indexFirst && keys % 2 == 0) {
                rig.index.completeAll(); // the log is idle when the COMMIT is appended
            }
            bytes.put(ref, rig.store(ref, keys));
            keys++;
            final AtomicReference<Integer> done = rig.commit(ref);
            if (settle) {
                rig.settle();
            }
            return done;
        }

        void untilCheckpoints(final int n) {
            while (checkpoints() < n) {
                next(true);
                if (keys > MAX_KEYS) {
                    throw new AssertionError("no checkpoint after " + keys + " keys");
                }
            }
        }

        /** Every visible key loads its exact bytes, or fails CORRUPT when {@code corruptAllowed}. */
        void checkLoads(final CrashRig next, final boolean corruptAllowed) {
            for (final AllocationRef ref : next.server.directory().liveInAgeOrder()) {
                final byte[] expected = bytes.get(ref);
                assertNotNull(expected, "recovered an allocation never stored: " + ref);
                final CrashRig.Loaded l = next.load(ref);
                next.settle();
                if (l.ok()) {
                    assertArrayEquals(expected, l.bytes(0, SLOT), "bytes of " + ref);
                } else {
                    assertTrue(corruptAllowed, ref + " failed: " + l.result().get());
                    assertEquals(LoadFailure.CORRUPT, l.result().get().failure());
                }
            }
        }
    }

    @Test
    void shouldCheckpointWhenTheLapPassesHalfTheLogAndRecoverExactlyTheLiveSet() {
        final Churn c = new Churn(CommitMode.L1);
        c.untilCheckpoints(2);
        final IndexLayout layout = c.rig.layout();
        final List<CoreEvent.IndexCheckpointed> cps = c.rig.events.of(CoreEvent.IndexCheckpointed.class);
        assertTrue(cps.getLast().chunks() >= RING - 1, "a full ring of live logged chunks (less a fresh claim): "
            + cps.getLast().chunks());
        // Each checkpoint went to the slot not holding the newest: open's in 0, then 1, then 0.
        final List<Long> cpWrites = c.rig.index.history().stream()
            .filter(r -> r.op() == IoOp.WRITE && r.fileOffset() < layout.logOffset()).map(IoRequest::fileOffset)
            .toList();
        assertEquals(List.of(layout.checkpointOffset(0), layout.checkpointOffset(1), layout.checkpointOffset(0)),
            cpWrites);
        // The log never grows past the log area.
        assertTrue(c.rig.index.history().stream().allMatch(r -> r.op() != IoOp.WRITE
            || r.fileOffset() + r.lengthBytes() <= layout.deviceBytes()));
        // A few more keys so the newest lap holds records after the checkpoint.
        for (int i = 0; i < 5; i++) {
            c.next(true);
        }
        final List<AllocationRef> live = c.rig.server.directory().liveInAgeOrder();
        final long appended = c.rig.server.directory().indexLog().recordsAppended();

        final CrashRig next = c.rig.restart();
        assertEquals(live, next.server.directory().liveInAgeOrder(), "exactly the live committed set");
        final CoreEvent.IndexOpened o = next.events.of(CoreEvent.IndexOpened.class).getFirst();
        assertEquals(RING, o.recovered());
        assertTrue(o.records() > 0 && o.records() < appended / 2, "only the newest lap is replayed: "
            + o.records() + " of " + appended);
        c.checkLoads(next, false);
    }

    @Test
    void shouldRecoverTheWrittenStateWhenTheCheckpointWriteIsLost() {
        // Keys one by one, index I/O completed after each append, so the log on disk is always whole; when an append
        // starts a periodic checkpoint, crash with its write in flight: the older checkpoint and the lap on disk
        // give exactly the committed set as of the append before.
        final Churn c = new Churn(CommitMode.L1);
        int crashes = 0;
        while (crashes < 2) {
            assertTrue(c.keys < MAX_KEYS);
            final List<AllocationRef> beforeClaim = committedLive(c.rig);
            final AllocationRef ref = c.rig.claimOne("key-" + c.keys); // may append EVICT of the oldest
            c.keys++;
            if (checkpointInFlight(c.rig)) {
                crashAndExpect(c, beforeClaim);
                crashes++;
            }
            c.rig.index.completeAll();
            c.bytes.put(ref, c.rig.store(ref, c.keys - 1));
            final List<AllocationRef> beforeCommit = committedLive(c.rig);
            c.rig.commit(ref); // appends COMMIT
            if (checkpointInFlight(c.rig)) {
                crashAndExpect(c, beforeCommit);
                crashes++;
                c.rig.settle();
                crashAndExpect(c, committedLive(c.rig)); // the checkpoint holds the chunk that started it
                continue;
            }
            c.rig.settle();
        }
    }

    private static boolean checkpointInFlight(final CrashRig rig) {
        final IoRequest w = rig.index.oldest(IoOp.WRITE);
        return w != null && w.fileOffset() < rig.layout().logOffset();
    }

    private static void crashAndExpect(final Churn c, final List<AllocationRef> expected) {
        final CrashRig next = c.rig.restart();
        assertEquals(expected, next.server.directory().liveInAgeOrder(), "after " + c.keys + " keys");
        c.checkLoads(next, false);
    }

    private static List<AllocationRef> committedLive(final CrashRig rig) {
        return rig.server.directory().liveInAgeOrder().stream().filter(r -> rig.server.directory().isCommitted(r))
            .toList();
    }

    @Test
    void shouldNeverServeWrongBytesWhenOnlyTheNewestCheckpointIsDurable() {
        // L1 mode never flushes the log between checkpoints, nor ever the data device: after a crash losing every
        // unflushed index write, recovery finds the newest checkpoint (older than the live set); some of its chunks
        // were evicted since and their slots rewritten. Each loads its own bytes or fails CORRUPT.
        final Churn c = new Churn(CommitMode.L1);
        c.untilCheckpoints(1);
        for (int i = 0; i < 2 * RING; i++) {
            c.next(true);
        }
        final CrashRig next = c.rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED,
            ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        final int inCheckpoint = c.rig.events.of(CoreEvent.IndexCheckpointed.class).getLast().chunks();
        assertEquals(inCheckpoint, next.events.of(CoreEvent.IndexOpened.class).getFirst().recovered());
        assertEquals(0, next.events.of(CoreEvent.IndexOpened.class).getFirst().records());
        c.checkLoads(next, true);
        assertTrue(next.server.tieredStore().checksumMismatches() > 0, "the test did reach stale chunks");
    }

    @Test
    void shouldNeverLoseADurableCommitAcrossPeriodicCheckpoints() {
        // Crash (losing everything not flushed) right after the commit whose record started each checkpoint, and
        // every 50 keys: every live durable commit must come back.
        final Churn c = new Churn(CommitMode.DURABLE);
        c.indexFirst = true;
        while (c.checkpoints() < 3) {
            final int before = c.checkpoints();
            final AtomicReference<Integer> done = c.next(true);
            assertEquals(1, done.get(), "key " + (c.keys - 1));
            if (c.checkpoints() > before || c.keys % 50 == 0) {
                crashAndCheck(c);
            }
            assertTrue(c.keys < MAX_KEYS);
        }
    }

    private static void crashAndCheck(final Churn c) {
        final List<AllocationRef> live = committedLive(c.rig);
        final CrashRig next = c.rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertEquals(live, next.server.directory().liveInAgeOrder(),
            "after " + c.keys + " keys: every live durable commit survives, nothing else comes back");
        c.checkLoads(next, false);
    }
}
