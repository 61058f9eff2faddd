package dev.kvtier.core.store;

import dev.kvtier.core.value.LoadRange;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.DiscardReason;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.SpanPiece;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Per-slot checksums: every slot read from L2 is checked against the checksum taken when it was stored; a mismatch
 * fails the load (CORRUPT), evicts the chunk, and never puts a wrong byte in a destination as a successful load.
 */
class ChecksumTest {
    private static final long SLOT = 4096;

    private static CrashRig rig(final int l1Slots, final int l2Slots) {
        return CrashRig.formatted(CrashRig.config(SLOT, l1Slots, l2Slots, CommitMode.L1));
    }

    private static void assertUntouched(final CrashRig.Loaded l) {
        final byte[] d = l.bytes();
        for (int i = 0; i < d.length; i++) {
            if (d[i] != CrashRig.SENTINEL) {
                throw new AssertionError("a failed load wrote byte " + i + " of its destination");
            }
        }
    }

    private static void assertCorrupt(final CrashRig rig, final CrashRig.Loaded l) {
        assertTrue(l.done(), "the load finished");
        assertEquals(LoadFailure.CORRUPT, l.result().get().failure());
        assertUntouched(l);
        assertTrue(rig.events.of(CoreEvent.Promoted.class).isEmpty(), "nothing corrupt was promoted");
    }

    @Test
    void shouldFailACorruptSlotAfterRecoveryAndForgetTheKey() {
        final CrashRig rig = rig(4, 8);
        final List<AllocationRef> ab = rig.claim(1, "a", "b");
        rig.store(ab.get(0), 1);
        final byte[] b = rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.data.flip(ab.get(0).fileOffset(SLOT) + 1234);
        next.openOrFail(true);
        final AllocationRef a = next.found("a");
        assertNotNull(a);

        final CrashRig.Loaded l = next.load(a);
        next.settle();
        assertCorrupt(next, l);
        final List<CoreEvent.ChecksumMismatch> mismatch = next.events.of(CoreEvent.ChecksumMismatch.class);
        assertEquals(List.of(new CoreEvent.ChecksumMismatch(l.result().get().loadId(), a.fileOffset(SLOT), SLOT, 0)),
            mismatch);
        final CoreEvent.RingEvicted ev = next.events.of(CoreEvent.RingEvicted.class).getFirst();
        assertEquals(RingEvictReason.CORRUPT, ev.reason());
        assertEquals(a.key(), ev.key());
        assertEquals(1, next.server.tieredStore().checksumMismatches());
        assertFalse(next.visible("a"), "a corrupt key is a miss from now on");
        assertTrue(next.residentOffsets().isEmpty(), "the corrupt read left no L1 entry");
        // b is unaffected.
        final CrashRig.Loaded lb = next.load(next.found("b"));
        next.settle();
        assertTrue(lb.ok());
        assertArrayEquals(b, lb.bytes(0, SLOT));
        // The eviction is logged: a stays gone after another restart.
        final CrashRig third = next.restart();
        assertFalse(third.visible("a"));
        assertTrue(third.visible("b"));
    }

    @Test
    void shouldFailACorruptSlotThatL1NoLongerHolds() {
        final CrashRig rig = rig(2, 8);
        final AllocationRef a = rig.claimOne("a");
        rig.store(a, 1);
        rig.commit(a);
        rig.settle();
        for (final String n : List.of("b", "c", "d")) {
            final AllocationRef r = rig.claimOne(n);
            rig.store(r, n.charAt(0));
            rig.commit(r);
            rig.settle();
        }
        assertFalse(rig.resident(a), "a was trimmed out of L1");
        rig.data.flip(a.fileOffset(SLOT) + SLOT - 1); // the slot's last byte
        final CrashRig.Loaded l = rig.load(a);
        assertEquals(a.fileOffset(SLOT), rig.data.oldest(IoOp.READ).fileOffset());
        rig.settle();
        assertCorrupt(rig, l);
        assertEquals(1, rig.events.of(CoreEvent.ChecksumMismatch.class).size());
        assertFalse(rig.visible("a"));
        assertFalse(rig.resident(a));
    }

    @Test
    void shouldNameTheCorruptSlotOfAMultiSlotChunkAndCopyNothing() {
        final CrashRig rig = rig(8, 8);
        final AllocationRef a = rig.claim(3, "a").getFirst();
        rig.store(a, 1);
        rig.commit(a);
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.data.flip(a.fileOffset(SLOT) + SLOT + 7); // slot 1 of 3
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertCorrupt(next, l);
        final CoreEvent.ChecksumMismatch m = next.events.of(CoreEvent.ChecksumMismatch.class).getFirst();
        assertEquals(a.fileOffset(SLOT) + SLOT, m.fileOffset());
        assertEquals(1, m.slotIndex());
        assertEquals(1, next.events.of(CoreEvent.ChecksumMismatch.class).size(), "the first bad slot ends the check");
        assertFalse(next.visible("a"));
    }

    @Test
    void shouldEvictOnlyTheCorruptChunkOfAGroupedLoad() {
        final CrashRig rig = rig(8, 8);
        final List<AllocationRef> abc = rig.claim(1, "a", "b", "c");
        for (int i = 0; i < 3; i++) {
            rig.store(abc.get(i), i);
        }
        rig.commit(abc);
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.data.flip(abc.get(1).fileOffset(SLOT));
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(next.found("a"), next.found("b"), next.found("c"));
        next.settle();
        assertEquals(LoadFailure.CORRUPT, l.result().get().failure());
        assertTrue(next.visible("a"));
        assertFalse(next.visible("b"));
        assertTrue(next.visible("c"));
        assertEquals(1, next.events.of(CoreEvent.RingEvicted.class).size());
    }

    @Test
    void shouldNeverServeAnotherKeysBytesFromAStaleIndexAfterACrash() {
        // a is committed and logged at slot 0. e takes slot 0 (a is evicted): e's data reaches L2, but the index
        // write carrying EVICT(a) is in flight at the crash. After recovery the index still says a is at slot 0.
        final CrashRig rig = rig(4, 4);
        final List<AllocationRef> abcd = rig.claim(1, "a", "b", "c", "d");
        final byte[] a = rig.store(abcd.get(0), 1);
        for (int i = 1; i < 4; i++) {
            rig.store(abcd.get(i), i + 1);
        }
        rig.commit(abcd);
        rig.settle();
        final AllocationRef e = rig.claimOne("e");
        assertEquals(0, e.startSlot());
        final IoRequest evictRecord = rig.index.oldest(IoOp.WRITE);
        assertNotNull(evictRecord, "EVICT(a) is being written");
        final byte[] eb = rig.store(e, 9);
        rig.commit(e);
        rig.data.completeAll();
        assertEquals(eb[0], (byte) rig.data.at(0), "e's bytes are on L2 in a's old slot");
        assertEquals(1, rig.index.inFlightCount());

        final CrashRig next = rig.restart(); // the index write is dropped
        final AllocationRef stale = next.found("a");
        assertNotNull(stale, "the index does not know a was evicted");
        assertEquals(0, stale.startSlot());
        assertFalse(next.visible("e"));
        final CrashRig.Loaded l = next.load(stale);
        next.settle();
        assertCorrupt(next, l);
        assertFalse(Arrays.equals(eb, l.bytes(0, SLOT)));
        assertFalse(next.visible("a"));
        assertNotNull(a);
    }

    @Test
    void shouldNeverServeATornWriteOfTheSlotsNewOwner() {
        // As above, but e's (two-slot) write is itself in flight at the crash and only its first block reaches the
        // media: a torn write over a's slots.
        final CrashRig rig = rig(4, 4);
        final List<AllocationRef> ab = rig.claim(2, "a", "b");
        rig.store(ab.get(0), 1);
        rig.store(ab.get(1), 2);
        rig.commit(ab);
        rig.settle();
        final AllocationRef e = rig.claim(2, "e").getFirst();
        rig.store(e, 9);
        assertEquals(1, rig.data.inFlightCount());
        final CrashRig next = rig.crash((w, block) -> w.completed() || (w.offset() == 0 && block == 0),
            ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertCorrupt(next, l);
        assertEquals(0, next.events.of(CoreEvent.ChecksumMismatch.class).getFirst().slotIndex());
    }

    @Test
    void shouldServeTheOldBytesWhenTheNewOwnersWriteNeverLanded() {
        final CrashRig rig = rig(4, 4);
        final List<AllocationRef> abcd = rig.claim(1, "a", "b", "c", "d");
        final byte[] a = rig.store(abcd.get(0), 1);
        for (int i = 1; i < 4; i++) {
            rig.store(abcd.get(i), i + 1);
        }
        rig.commit(abcd);
        rig.settle();
        final AllocationRef e = rig.claimOne("e");
        rig.store(e, 9); // its write stays in flight, as does EVICT(a)
        final CrashRig next = rig.restart();
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertTrue(l.ok(), "slot 0 still holds a's bytes: serving them is right");
        assertArrayEquals(a, l.bytes(0, SLOT));
    }

    @Test
    void shouldReadWholeSlotsForASubSlotLoadAndNotPromote() {
        final long slot = 8192;
        final CrashRig rig = CrashRig.formatted(CrashRig.config(slot, 8, 8, CommitMode.L1));
        final AllocationRef a = rig.claim(2, "a").getFirst();
        final byte[] bytes = rig.store(a, 5);
        rig.commit(a);
        rig.settle();
        final CrashRig next = rig.restart();
        final AllocationRef ra = next.found("a");
        final long base = ra.fileOffset(slot);

        // [base + 4096, +4096): the second half of slot 0.
        final CrashRig.Loaded half = next.load(List.of(new LoadRange(ra, base + 4096, 4096, 0)), 4096);
        final IoRequest read = next.data.oldest(IoOp.READ);
        assertEquals(base, read.fileOffset(), "the read starts at the slot");
        assertEquals(slot, read.lengthBytes(), "and covers the whole slot");
        next.settle();
        assertTrue(half.ok());
        assertArrayEquals(Arrays.copyOfRange(bytes, 4096, 8192), half.bytes(0, 4096));
        assertEquals(List.of(new CoreEvent.PromotionDiscarded(half.result().get().loadId(), base, slot,
            DiscardReason.PARTIAL_SLOT)), next.events.of(CoreEvent.PromotionDiscarded.class));
        assertTrue(next.events.of(CoreEvent.Promoted.class).isEmpty());
        assertTrue(next.residentOffsets().isEmpty(), "a partial read is not promoted");

        // [base + 4096, +8192): across the slot boundary; both slots read, 8 KiB copied to dest offset 4096.
        final CrashRig.Loaded across = next.load(List.of(new LoadRange(ra, base + 4096, 8192, 4096)), 16384);
        final IoRequest read2 = next.data.oldest(IoOp.READ);
        assertEquals(base, read2.fileOffset());
        assertEquals(2 * slot, read2.lengthBytes());
        next.settle();
        assertTrue(across.ok());
        assertArrayEquals(Arrays.copyOfRange(bytes, 4096, 12288), across.bytes(4096, 8192));
        final byte[] before = across.bytes(0, 4096);
        final byte[] after = across.bytes(12288, 4096);
        final byte[] sentinel = new byte[4096];
        Arrays.fill(sentinel, CrashRig.SENTINEL);
        assertArrayEquals(sentinel, before, "nothing outside the range is copied");
        assertArrayEquals(sentinel, after, "nothing outside the range is copied");
        assertTrue(next.residentOffsets().isEmpty());

        // A whole-allocation load is promoted.
        final CrashRig.Loaded whole = next.load(ra);
        next.settle();
        assertTrue(whole.ok());
        assertArrayEquals(bytes, whole.bytes(0, 2 * slot));
        assertEquals(1, next.events.of(CoreEvent.Promoted.class).size());
        assertEquals(List.of(base), next.residentOffsets());
    }

    @Test
    void shouldFailASubSlotLoadWhenTheOtherHalfOfItsSlotIsCorrupt() {
        final long slot = 8192;
        final CrashRig rig = CrashRig.formatted(CrashRig.config(slot, 8, 8, CommitMode.L1));
        final AllocationRef a = rig.claim(1, "a").getFirst();
        rig.store(a, 5);
        rig.commit(a);
        rig.settle();
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.data.flip(a.fileOffset(slot) + 10); // the first half
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(List.of(new LoadRange(next.found("a"), a.fileOffset(slot) + 4096, 4096,
            0)), 4096);
        next.settle();
        assertCorrupt(next, l);
        assertFalse(next.visible("a"));
    }

    @Test
    void shouldNeverServeFromL2ASlotThatNoStoreCoveredWhole() {
        final long slot = 8192;
        final CrashRig rig = CrashRig.formatted(CrashRig.config(slot, 8, 8, CommitMode.L1));
        final AllocationRef a = rig.claim(1, "a").getFirst();
        final byte[] half = CrashRig.pattern(3, 4096);
        assertNotNull(rig.storeBytes(a, half).get()); // only the first 4096 B of the 8192 B slot
        assertTrue(rig.resident(a));
        rig.commit(a);
        rig.settle();
        // The commit drops the slot from L1 (an entry over a slot without a checksum may be another owner's bytes).
        assertFalse(rig.resident(a), "a slot without a checksum is not served from L1 either");
        final CrashRig.Loaded hit = rig.load(List.of(new LoadRange(a, a.fileOffset(slot), 4096, 0)), 4096);
        rig.settle();
        assertEquals(LoadFailure.CORRUPT, hit.result().get().failure());
        // Nor from L2 after a restart: the slot's checksum is unknown.
        final CrashRig rig2 = CrashRig.formatted(CrashRig.config(slot, 8, 8, CommitMode.L1));
        final AllocationRef a2 = rig2.claim(1, "a").getFirst();
        assertNotNull(rig2.storeBytes(a2, half).get());
        rig2.commit(a2);
        rig2.settle();
        final CrashRig next = rig2.restart();
        final CrashRig.Loaded l = next.load(List.of(new LoadRange(next.found("a"), a.fileOffset(slot), 4096, 0)),
            4096);
        next.settle();
        assertCorrupt(next, l);
        assertNull(next.found("a"));
    }

    @Test
    void shouldNeverServeThePreviousOwnersBytesOfASlotNoStoreCovered() {
        // a fills a ring of two slots and stays in L1; b takes a's slots (a is evicted), and its client stores only
        // b's first slot and commits it. b's second slot has no checksum; L1 still held a's bytes over it.
        final CrashRig rig = rig(8, 2);
        final AllocationRef a = rig.claim(2, "a").getFirst();
        final byte[] aBytes = CrashRig.pattern(1, 2 * SLOT);
        for (int i = 0; i < 2; i++) { // one store a slot, as staging batches of one slot send them: two entries
            final AtomicReference<StoreResult> r = new AtomicReference<>();
            rig.server.store(900 + i, rig.region(aBytes), List.of(new SpanPiece(a, i * SLOT,
                a.fileOffset(SLOT) + i * SLOT, SLOT)), r::set);
            assertTrue(r.get().accepted().contains(a));
        }
        assertEquals(2, rig.residentOffsets().size());
        rig.commit(a);
        rig.settle();
        final AllocationRef b = rig.claim(2, "b").getFirst();
        assertEquals(a.startSlot(), b.startSlot(), "b took a's slots");
        assertTrue(rig.resident(a), "a's bytes are still in L1");
        assertNotNull(rig.storeBytes(b, CrashRig.pattern(2, SLOT)).get());
        rig.commit(b);
        rig.settle();
        assertTrue(rig.visible("b"));
        final CrashRig.Loaded l = rig.load(b);
        rig.settle();
        assertEquals(LoadFailure.CORRUPT, l.result().get().failure(), "b's second slot was never stored");
        assertFalse(Arrays.equals(Arrays.copyOfRange(aBytes, (int) SLOT, (int) (2 * SLOT)), l.bytes(SLOT, SLOT)),
            "a's bytes were copied out as b's");
        assertFalse(rig.visible("b"), "a chunk with a slot no store covered leaves the ring at its first load");
    }

    @Test
    void shouldForgetTheChecksumOfASlotThatALaterStoreCoversInPart() {
        // A whole-slot store (A), then a store of the slot's first half (B) whose write is lost by the crash: the
        // disk holds all of A, the key's last bytes are B + A's second half. Serving A would be wrong.
        final long slot = 8192;
        final CrashRig rig = CrashRig.formatted(CrashRig.config(slot, 8, 8, CommitMode.L1));
        final AllocationRef k = rig.claim(1, "k").getFirst();
        rig.store(k, 1);
        rig.data.completeAll();
        assertNotNull(rig.storeBytes(k, CrashRig.pattern(2, 4096)).get());
        rig.commit(k);
        rig.index.completeAll();
        assertEquals(1, rig.data.inFlightCount(), "B's write is in flight");
        final CrashRig next = rig.restart();
        final CrashRig.Loaded l = next.load(next.found("k"));
        next.settle();
        assertCorrupt(next, l);
    }
}
