package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Recovering the index in {@code l1} commit mode: what comes back, with which bytes, and what is dropped. */
class IndexRecoveryTest {
    private static final long SLOT = 4096;

    private static CrashRig rig(final int l1Slots, final int l2Slots) {
        return CrashRig.formatted(CrashRig.config(SLOT, l1Slots, l2Slots, CommitMode.L1));
    }

    /** Offsets (in the log area) of the records on the device, walking their length fields. */
    static List<Integer> recordOffsets(final CrashRig rig, final long epoch, final long firstSeq) {
        final IndexLayout layout = rig.layout();
        final byte[] log = rig.index.read(layout.logOffset(), Math.toIntExact(layout.logBytes()));
        final List<Integer> out = new ArrayList<>();
        int at = 0;
        long seq = firstSeq;
        while (IndexCodec.readRecord(log, at, log.length, epoch, seq) != null) {
            out.add(at);
            at += IndexCodec.recordLength(log, at);
            seq++;
        }
        return out;
    }

    private static CoreEvent.IndexOpened opened(final CrashRig rig) {
        return rig.events.of(CoreEvent.IndexOpened.class).getFirst();
    }

    @Test
    void shouldRecoverCommittedKeysWithTheirExactBytes() {
        final CrashRig rig = rig(8, 16);
        final List<AllocationRef> abc = rig.claim(1, "a", "b", "c");
        final AllocationRef big = rig.claim(3, "big").getFirst();
        final Map<AllocationRef, byte[]> bytes = new LinkedHashMap<>();
        for (int i = 0; i < abc.size(); i++) {
            bytes.put(abc.get(i), rig.store(abc.get(i), i));
        }
        bytes.put(big, rig.store(big, 7));
        assertEquals(3, rig.commit(abc).get());
        assertEquals(1, rig.commit(big).get());
        rig.settle();
        final List<AllocationRef> live = rig.server.directory().liveInAgeOrder();

        final CrashRig next = rig.restart();
        final CoreEvent.IndexOpened o = opened(next);
        assertTrue(o.recoveredFromDisk());
        assertEquals(4, o.recovered());
        assertEquals(4, o.records(), "four COMMIT records after the format checkpoint");
        assertTrue(o.epoch() > opened(rig).epoch(), "recovery goes on with a new epoch");
        assertEquals(live, next.server.directory().liveInAgeOrder(), "same allocations, ids and slots");
        for (final Map.Entry<AllocationRef, byte[]> e : bytes.entrySet()) {
            final AllocationRef found = next.found(nameOf(e.getKey()));
            assertEquals(e.getKey(), found);
            final CrashRig.Loaded l = next.load(found);
            next.settle();
            assertTrue(l.ok(), "load of " + found + ": " + l.result().get());
            assertArrayEquals(e.getValue(), l.bytes(0, e.getValue().length));
            assertEquals(0, l.result().get().hitBytes(), "L1 is empty after a restart: the bytes came from L2");
        }
        assertTrue(next.events.of(CoreEvent.ChecksumMismatch.class).isEmpty());
        // The recovered checkpoint went to the other slot.
        final IndexCodec.CheckpointHeader h1 = IndexCodec.readHeader(next.index.read(next.layout()
            .checkpointOffset(1), 4096));
        assertNotNull(h1);
        assertEquals(2, h1.checkpointSeq());
        assertEquals(4, h1.chunkCount());
    }

    private static String nameOf(final AllocationRef ref) {
        for (final String n : List.of("a", "b", "c", "big", "d", "e", "f", "g")) {
            if (CrashRig.key(n).equals(ref.key())) {
                return n;
            }
        }
        throw new AssertionError("unknown key " + ref.key());
    }

    @Test
    void shouldKeepAllocatingAfterRecoveryWithoutReusingLiveSlotsOrIds() {
        final CrashRig rig = rig(4, 8);
        final List<AllocationRef> ab = rig.claim(1, "a", "b");
        final byte[] a = rig.store(ab.get(0), 1);
        final byte[] b = rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        final CrashRig next = rig.restart();
        final AllocationRef c = next.claimOne("c");
        assertEquals(2, c.startSlot(), "head continues after the newest recovered chunk");
        assertTrue(c.allocationId() > ab.get(1).allocationId());
        final byte[] cb = next.store(c, 3);
        next.commit(c);
        next.settle();
        final CrashRig third = next.restart();
        assertEquals(3, opened(third).recovered());
        final CrashRig.Loaded l = third.load(third.found("a"), third.found("b"), third.found("c"));
        third.settle();
        assertTrue(l.ok());
        assertArrayEquals(a, l.bytes(0, SLOT));
        assertArrayEquals(b, l.bytes(SLOT, SLOT));
        assertArrayEquals(cb, l.bytes(2 * SLOT, SLOT));
    }

    @Test
    void shouldNotRecoverAKeyWhoseCommitRecordNeverReachedTheIndex() {
        final CrashRig rig = rig(4, 8);
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        rig.commit(a);
        rig.data.completeAll();
        final IoRequest write = rig.index.oldest(IoOp.WRITE);
        assertNotNull(write, "l1 mode logs the COMMIT lazily, but logs it");
        assertTrue(rig.visible("a"), "l1 mode: visible at once");
        final CrashRig next = rig.restart(); // the index write was in flight: dropped
        assertFalse(next.visible("a"));
        assertEquals(0, opened(next).recovered());
    }

    @Test
    void shouldNotRecoverKeysTheRingEvictedBeforeTheCrash() {
        final CrashRig rig = rig(4, 4);
        final List<AllocationRef> abcd = rig.claim(1, "a", "b", "c", "d");
        final Map<String, byte[]> bytes = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            bytes.put(List.of("a", "b", "c", "d").get(i), rig.store(abcd.get(i), i));
        }
        rig.commit(abcd);
        rig.settle();
        final List<AllocationRef> ef = rig.claim(1, "e", "f"); // evicts a and b, the oldest
        assertEquals(List.of(0, 1), List.of(ef.get(0).startSlot(), ef.get(1).startSlot()));
        final List<CoreEvent.RingEvicted> evicted = rig.events.of(CoreEvent.RingEvicted.class);
        assertEquals(2, evicted.size());
        assertTrue(evicted.stream().allMatch(e -> e.reason() == RingEvictReason.SPACE && e.committed()));
        bytes.put("e", rig.store(ef.get(0), 10));
        bytes.put("f", rig.store(ef.get(1), 11));
        rig.commit(ef);
        rig.settle();

        final CrashRig next = rig.restart();
        assertEquals(4, opened(next).recovered());
        assertEquals(8, opened(next).records(), "4 COMMIT, 2 EVICT, 2 COMMIT");
        assertFalse(next.visible("a"));
        assertFalse(next.visible("b"));
        for (final String n : List.of("c", "d", "e", "f")) {
            final AllocationRef ref = next.found(n);
            assertNotNull(ref, n);
            final CrashRig.Loaded l = next.load(ref);
            next.settle();
            assertTrue(l.ok(), n);
            assertArrayEquals(bytes.get(n), l.bytes(0, SLOT), n);
        }
        assertEquals(0, next.found("e").startSlot(), "a's slot has its new owner");
    }

    @Test
    void shouldNotRecoverKeysEvictedByAWrapOfMultiSlotChunks() {
        final CrashRig rig = rig(8, 8);
        final List<AllocationRef> ab = rig.claim(3, "a", "b"); // slots 0-2, 3-5
        rig.store(ab.get(0), 1);
        final byte[] b = rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        final AllocationRef c = rig.claim(3, "c").getFirst(); // does not fit 6-8: wraps to 0, evicts a
        assertEquals(0, c.startSlot());
        assertEquals(RingEvictReason.SPACE, rig.events.of(CoreEvent.RingEvicted.class).getFirst().reason());
        final byte[] cb = rig.store(c, 3);
        rig.commit(c);
        rig.settle();
        final CrashRig next = rig.restart();
        assertFalse(next.visible("a"));
        final CrashRig.Loaded l = next.load(next.found("b"), next.found("c"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(b, l.bytes(0, 3 * SLOT));
        assertArrayEquals(cb, l.bytes(3 * SLOT, 3 * SLOT));
        // The ring goes on from after c: the next 3-slot chunk evicts b.
        next.claim(3, "d");
        assertEquals(List.of(CrashRig.key("b")),
            next.events.of(CoreEvent.RingEvicted.class).stream().map(CoreEvent.RingEvicted::key).toList());
    }

    @Test
    void shouldNotRecoverAReleasedClaimOrAnUncommittedOne() {
        final CrashRig rig = rig(4, 8);
        final List<AllocationRef> ab = rig.claim(1, "a", "b");
        rig.store(ab.get(0), 1);
        rig.store(ab.get(1), 2);
        assertTrue(rig.server.release(ab.get(1)));
        rig.settle();
        final CrashRig next = rig.restart();
        assertFalse(next.visible("a"));
        assertFalse(next.visible("b"));
        assertEquals(0, opened(next).records(), "claims are never logged");
    }

    @Test
    void shouldDropATornLastRecordAndKeepTheOnesBeforeIt() {
        final CrashRig rig = rig(8, 16);
        final List<AllocationRef> refs = rig.claim(1, "a", "b", "c", "d", "e");
        final List<byte[]> bytes = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            bytes.add(rig.store(refs.get(i), i));
            rig.commit(refs.get(i));
            rig.settle();
        }
        final long epoch = opened(rig).epoch();
        final List<Integer> at = recordOffsets(rig, epoch, 1);
        assertEquals(5, at.size());
        // Garble one byte in the middle of the last record.
        rig.index.flip(rig.layout().logOffset() + at.get(4) + 40);
        final CrashRig next = rig.restart();
        assertEquals(4, opened(next).records());
        assertEquals(4, opened(next).recovered());
        assertFalse(next.visible("e"));
        for (int i = 0; i < 4; i++) {
            final String n = List.of("a", "b", "c", "d").get(i);
            final CrashRig.Loaded l = next.load(next.found(n));
            next.settle();
            assertTrue(l.ok(), n);
            assertArrayEquals(bytes.get(i), l.bytes(0, SLOT));
        }
    }

    @Test
    void shouldDropAGarbledRecordAndEverythingAfterIt() {
        final CrashRig rig = rig(8, 16);
        final List<AllocationRef> refs = rig.claim(1, "a", "b", "c", "d", "e");
        for (int i = 0; i < refs.size(); i++) {
            rig.store(refs.get(i), i);
            rig.commit(refs.get(i));
        }
        rig.settle();
        final List<Integer> at = recordOffsets(rig, opened(rig).epoch(), 1);
        assertEquals(5, at.size());
        rig.index.flip(rig.layout().logOffset() + at.get(2)); // the length field of c's record
        final CrashRig next = rig.restart();
        assertEquals(2, opened(next).records());
        assertTrue(next.visible("a"));
        assertTrue(next.visible("b"));
        for (final String n : List.of("c", "d", "e")) {
            assertFalse(next.visible(n), n + " comes after the garbled record");
        }
    }

    @Test
    void shouldDropARecordWhoseSequenceNumberIsNotTheNextOne() {
        // A record from an earlier lap (intact, same epoch, older sequence number) must end the log.
        final CrashRig rig = rig(8, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        rig.commit(a);
        rig.settle();
        final byte[] stale = IndexCodec.commitRecord(opened(rig).epoch(), 1,
            new IndexChunk(CrashRig.key("zz"), CrashRig.MODEL, 99, 5, 1, new long[] {1}, new boolean[] {true}));
        final List<Integer> at = recordOffsets(rig, opened(rig).epoch(), 1);
        final long second = rig.layout().logOffset() + at.getFirst() + IndexCodec.recordLength(
            rig.index.read(rig.layout().logOffset(), 4096), at.getFirst());
        for (int i = 0; i < stale.length; i++) {
            rig.index.poke(second + i, stale[i]);
        }
        final CrashRig next = rig.restart();
        assertEquals(1, opened(next).records());
        assertTrue(next.visible("a"));
        assertFalse(next.visible("zz"));
    }

    @Test
    void shouldUseTheOlderCheckpointWhenTheNewestIsGarbled() {
        // format: cp#1 (empty) in slot 0. Commit a, b; restart: cp#2 {a, b} in slot 1. Commit c; restart:
        // cp#3 {a, b, c} in slot 0. Commit d. Then garble cp#3's body: cp#2 must be used.
        final CrashRig rig = rig(8, 16);
        final List<AllocationRef> ab = rig.claim(1, "a", "b");
        final byte[] a = rig.store(ab.get(0), 1);
        final byte[] b = rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        final CrashRig second = rig.restart();
        final AllocationRef c = second.claimOne("c");
        second.store(c, 3);
        second.commit(c);
        second.settle();
        final CrashRig third = second.restart();
        assertEquals(3, opened(third).recovered());
        final AllocationRef d = third.claimOne("d");
        third.store(d, 4);
        third.commit(d);
        third.settle();
        final IndexLayout layout = third.layout();
        final IndexCodec.CheckpointHeader newest = IndexCodec.readHeader(third.index.read(0, 4096));
        assertEquals(3, newest.checkpointSeq());
        assertEquals(3, newest.chunkCount());
        third.index.flip(layout.checkpointOffset(0) + IndexCodec.CHECKPOINT_HEADER_BYTES + 20); // in the body

        final CrashRig fourth = third.restart();
        final CoreEvent.IndexOpened o = opened(fourth);
        assertTrue(o.recoveredFromDisk());
        assertEquals(2, o.recovered(), "cp#2 holds a and b");
        assertEquals(0, o.records(), "the log on disk belongs to cp#3's lap");
        final CrashRig.Loaded l = fourth.load(fourth.found("a"), fourth.found("b"));
        fourth.settle();
        assertTrue(l.ok());
        assertArrayEquals(a, l.bytes(0, SLOT));
        assertArrayEquals(b, l.bytes(SLOT, SLOT));
        assertFalse(fourth.visible("c"));
        assertFalse(fourth.visible("d"));
        // The new checkpoint replaced the garbled one, never the intact one it came from.
        final IndexCodec.CheckpointHeader slot0 = IndexCodec.readHeader(fourth.index.read(0, 4096));
        final IndexCodec.CheckpointHeader slot1 = IndexCodec.readHeader(fourth.index.read(layout
            .checkpointOffset(1), 4096));
        assertEquals(3, slot0.checkpointSeq(), "cp#2 + 1, written over the garbled cp#3");
        assertEquals(2, slot1.checkpointSeq());
        assertNotNull(IndexCodec.readBody(fourth.index.read(0, 4096), slot0));
    }

    @Test
    void shouldUseTheOlderCheckpointAndItsIntactLapWhenTheNewestHeaderIsGarbled() {
        final CrashRig rig = rig(8, 16);
        final List<AllocationRef> ab = rig.claim(1, "a", "b");
        rig.store(ab.get(0), 1);
        rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        // cp#2 {a, b} in slot 1; cp#1 {} in slot 0, and the log area still holds cp#1's lap: COMMIT a, COMMIT b.
        final CrashRig second = rig.restart();
        final long newest = second.layout().checkpointOffset(1);
        for (final int field : new int[] {12, 16, 24, 32, 52, 56}) { // crc, epoch, seqs, chunkCount, bodyBytes
            final CrashRig probe = second.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
            probe.index.flip(newest + field);
            probe.openOrFail(true);
            final CoreEvent.IndexOpened o = opened(probe);
            assertTrue(o.recoveredFromDisk(), "field at " + field);
            assertEquals(2, o.records(), "cp#1 and its lap are used when cp#2's header at " + field + " is garbled");
            assertEquals(2, o.recovered());
        }
        // Once cp#2's lap overwrote the log area, a garbled cp#2 leaves only cp#1: empty, the new record not in
        // sequence after it.
        final AllocationRef c = second.claimOne("c");
        second.store(c, 3);
        second.commit(c);
        second.settle();
        final CrashRig intact = second.restart();
        assertEquals(3, opened(intact).recovered(), "control: nothing garbled");
        final CrashRig probe = second.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        probe.index.flip(newest + 12);
        probe.openOrFail(true);
        assertEquals(0, opened(probe).recovered());
        assertEquals(0, opened(probe).records());
        assertFalse(probe.visible("a"));
    }

    @Test
    void shouldUseTheOlderCheckpointWhenTheNewestHeadersGeometryIsGarbled() {
        final CrashRig rig = rig(8, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        rig.commit(a);
        rig.settle();
        final CrashRig second = rig.restart(); // cp#2 {a} in slot 1
        second.index.flip(second.layout().checkpointOffset(1) + 48); // slotCount of cp#2
        final CrashRig third = second.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        assertNull(third.open(true), "a garbled header is not another ring's index");
        assertTrue(opened(third).recoveredFromDisk());
    }

    @Test
    void shouldRecoverAfterFormattingADeviceThatHeldAnotherRingsIndex() {
        final CoreConfig other = CrashRig.config(8192, 2, 8, CommitMode.L1);
        final CrashRig foreign = CrashRig.formatted(other).restart(); // its checkpoints in slots 0 and 1
        final CrashRig rig = new CrashRig(CrashRig.config(SLOT, 8, 16, CommitMode.L1),
            new ManualDevice(16 * SLOT), foreign.index.crashed(ManualDevice.CrashPolicy.KEEP_COMPLETED));
        rig.openOrFail(false); // formats into slot 0; slot 1 still holds the other ring's checkpoint
        assertEquals(8, IndexCodec.readHeader(rig.index.read(rig.layout().checkpointOffset(1), 4096))
            .slotCount());
        final AllocationRef a = rig.claimOne("a");
        final byte[] bytes = rig.store(a, 1);
        rig.commit(a);
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        assertNull(next.open(true), "our newest checkpoint outranks the stale foreign one");
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(bytes, l.bytes(0, SLOT));
    }

    @Test
    void shouldNeverReplayARecordFromBeforeARecoveryAfterALaterCrash() {
        // Chunks of 107 slots have 1024-byte COMMIT records: four fill block 0 of the log area exactly.
        // Incarnation 1 (l1 mode): COMMIT o1..o4 (block 0), then EVICT(o1) as record 5 (block 1). The crash keeps
        // the write of block 1 but not those of block 0 (no flush ordered them): recovery finds no record at all.
        // Incarnation 2 (durable): n1..n4 get allocation ids 1..4 again and their four records (seq 1..4) fill
        // block 0 again; every commit is durable. After a second crash the old EVICT (seq 5) sits right where record
        // 5 is expected; it must not be taken for a new record (it would evict n1, a durable commit).
        final int ring = 478;
        final CoreConfig l1 = CrashRig.config(SLOT, 128, ring, CommitMode.L1);
        final CrashRig first = CrashRig.formatted(l1);
        for (final String n : List.of("o1", "o2", "o3", "o4")) {
            final AllocationRef r = first.claim(107, n).getFirst();
            first.store(r, n.hashCode());
            first.commit(r);
            first.settle();
        }
        final long log = first.layout().logOffset();
        assertEquals(4, recordOffsets(first, opened(first).epoch(), 1).size());
        first.claim(100, "o5"); // wraps and evicts o1 only: EVICT(1) is record 5, at log + 4096
        first.settle();
        assertEquals(List.of(CrashRig.key("o1")),
            first.events.of(CoreEvent.RingEvicted.class).stream().map(CoreEvent.RingEvicted::key).toList());
        final ManualDevice.CrashPolicy dropBlockZero = (w, block) -> w.completed()
            && w.offset() + (long) block * ManualDevice.BLOCK != log;
        final CrashRig crashed = first.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED, dropBlockZero);
        final CoreConfig durable = l1.toBuilder().commitMode(CommitMode.DURABLE).build();
        final CrashRig second = new CrashRig(durable, crashed.data, crashed.index);
        second.openOrFail(true);
        assertEquals(0, opened(second).records(), "block 0 holds no record");
        assertEquals(0, opened(second).recovered());

        final List<AllocationRef> fresh = new ArrayList<>();
        for (final String n : List.of("n1", "n2", "n3", "n4")) {
            final AllocationRef r = second.claim(107, n).getFirst();
            second.store(r, n.hashCode());
            final java.util.concurrent.atomic.AtomicReference<Integer> done = second.commit(r);
            second.settle();
            assertEquals(1, done.get(), n + " is durably committed");
            fresh.add(r);
        }
        assertEquals(1, fresh.getFirst().allocationId(), "allocation ids start again at 1");
        final CrashRig third = second.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        third.openOrFail(true);
        for (final String n : List.of("n1", "n2", "n3", "n4")) {
            assertTrue(third.visible(n), "durable commit " + n + " survives the second crash");
        }
        assertEquals(4, opened(third).records(), "only the four records of the second incarnation");
    }
}
