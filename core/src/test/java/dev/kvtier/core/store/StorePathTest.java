package dev.kvtier.core.store;

import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.SpanPiece;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StorePathTest {

    @Test
    void shouldCompleteAStoreBeforeItsL2WriteCompletes() {
        final Rig rig = Rig.slots(8, 16);
        final AllocationRef a = rig.claimOne("a");
        final AtomicReference<StoreResult> r = rig.storeValue(a, 7);
        assertNotNull(r.get(), "acknowledged once the bytes are in L1");
        assertEquals(List.of(a), r.get().accepted());
        final IoRequest w = rig.device.oldest(IoOp.WRITE);
        assertNotNull(w, "the L2 write is still in flight");
        assertEquals(0, rig.device.at(a.fileOffset(SLOT)));
        rig.device.complete(w.ioId());
        assertEquals(7, rig.device.at(a.fileOffset(SLOT)));
    }

    @Test
    void shouldChainAnOverwriteAfterThePendingWriteAndFreeTheOldSliceOnlyAfterIt() {
        final Rig rig = Rig.slots(8, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        final IoRequest first = rig.device.oldest(IoOp.WRITE);
        final long firstSlice = rig.events.of(CoreEvent.SliceReserved.class).getFirst().poolOffset();
        rig.storeValue(a, 2);
        assertEquals(1, rig.device.inFlightCount(), "the second write waits for the first");
        final CoreEvent.BatchSealed second = rig.events.of(CoreEvent.BatchSealed.class).getLast();
        assertEquals(1, second.dependsOn());
        assertTrue(rig.events.of(CoreEvent.SliceFreed.class).isEmpty(), "old slice still owned by its write");

        rig.device.complete(first.ioId());
        final int completedAt = rig.events.indexOf(e -> e instanceof CoreEvent.IoCompleted c
            && c.ioId() == first.ioId());
        final int freedAt = rig.events.indexOf(e -> e instanceof CoreEvent.SliceFreed f
            && f.poolOffset() == firstSlice);
        assertTrue(freedAt > completedAt, "the earlier slice is freed only after its write");
        assertEquals(1, rig.device.inFlightCount(), "now the second write is submitted");
        rig.device.completeAll();
        assertEquals(2, rig.device.at(a.fileOffset(SLOT)), "L2 ends with the later store");
    }

    @Test
    void shouldDropStaleSpansAtTheBoundaryAndWriteNothing() {
        final Rig rig = Rig.slots(4, 2);
        final AllocationRef a = rig.claimOne("a");
        rig.claim("b", "c"); // ring of 2: c evicts a
        final AtomicReference<StoreResult> r = rig.storeValue(a, 5);
        assertEquals(List.of(a), r.get().rejected());
        assertTrue(r.get().accepted().isEmpty());
        assertEquals(CoreEvent.RejectReason.STALE, rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
        assertEquals(0, rig.device.history().size());
        assertEquals(0, rig.server.tieredStore().residentBytes());
    }

    @Test
    void shouldRejectAMisalignedSpan() {
        final Rig rig = Rig.slots(4, 8);
        final AllocationRef a = rig.claimOne("a");
        final HeapMemory.Region src = rig.source(1);
        final AtomicReference<StoreResult> r = rig.storeSpans(src,
            List.of(new SpanPiece(a, 0, a.fileOffset(SLOT) + 512, SLOT - 512)));
        assertEquals(List.of(a), r.get().rejected());
        assertEquals(CoreEvent.RejectReason.MISALIGNED,
            rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
    }

    @Test
    void shouldReachTheLayerInTheOrderSentWhenCoalescingIsOff() {
        final Rig rig = new Rig(CoreConfig.builder(SLOT).l2Bytes(16 * SLOT).l1Bytes(8 * SLOT)
            .coalesceStoreSpans(false).build());
        final List<AllocationRef> abc = rig.claim("a", "b", "c");
        final HeapMemory.Region src = rig.source(3, 1, 2);
        final List<SpanPiece> sent = List.of(
            new SpanPiece(abc.get(2), 0, abc.get(2).fileOffset(SLOT), SLOT),
            new SpanPiece(abc.get(0), SLOT, abc.get(0).fileOffset(SLOT), SLOT),
            new SpanPiece(abc.get(1), 2 * SLOT, abc.get(1).fileOffset(SLOT), SLOT));
        rig.storeSpans(src, sent);
        final List<Long> inserted = rig.events.of(CoreEvent.EntryInserted.class).stream()
            .map(CoreEvent.EntryInserted::fileOffset).toList();
        assertEquals(List.of(2 * SLOT, 0L, SLOT), inserted);
        rig.device.completeAll();
        assertEquals(1, rig.device.at(0));
        assertEquals(2, rig.device.at(SLOT));
        assertEquals(3, rig.device.at(2 * SLOT));
    }

    @Test
    void shouldNotMergeAdjacentSpansWhenCoalescingIsOffButStillBatchTheirWrite() {
        final Rig rig = new Rig(CoreConfig.builder(SLOT).l2Bytes(16 * SLOT).l1Bytes(8 * SLOT)
            .coalesceStoreSpans(false).build());
        final List<AllocationRef> abc = rig.claim("a", "b", "c");
        rig.store(rig.source(1, 2, 3), abc);
        assertEquals(3, rig.events.of(CoreEvent.EntryInserted.class).size(), "one entry per span");
        assertEquals(1, rig.device.inFlightCount(), "file-adjacent spans share one grouped write");
    }

    @Test
    void shouldCoalesceAdjacentSpansKeepingEveryBytesMapping() {
        final Rig rig = Rig.slots(8, 16);
        final List<AllocationRef> abc = rig.claim("a", "b", "c");
        rig.store(rig.source(4, 5, 6), abc);
        assertEquals(new CoreEvent.SpansCoalesced(rig.events.of(CoreEvent.StoreReceived.class).getFirst().storeId(),
            3, 1), rig.events.of(CoreEvent.SpansCoalesced.class).getFirst());
        assertEquals(1, rig.events.of(CoreEvent.EntryInserted.class).size());
        rig.device.completeAll();
        for (int i = 0; i < 3; i++) {
            assertEquals(4 + i, rig.device.at(abc.get(i).fileOffset(SLOT)));
            assertEquals(4 + i, rig.device.at(abc.get(i).fileOffset(SLOT) + SLOT - 1));
        }
    }

    @Test
    void shouldSealAWriteBatchAtTheSizeLimitAndWhenNotAdjacent() {
        final Rig rig = new Rig(CoreConfig.builder(SLOT).l2Bytes(32 * SLOT).l1Bytes(16 * SLOT)
            .coalesceStoreSpans(false).groupedWriteBatchBytes(2 * SLOT).maxReadBytes(2 * SLOT).build());
        final List<AllocationRef> refs = rig.claim("a", "b", "c", "d", "e");
        rig.store(rig.source(1, 2, 3, 4, 5), refs);
        final List<CoreEvent.BatchSealed> sealed = rig.events.of(CoreEvent.BatchSealed.class);
        assertEquals(List.of(2, 2, 1), sealed.stream().map(CoreEvent.BatchSealed::entries).toList());
        assertEquals(CoreEvent.SealReason.SIZE, sealed.getFirst().reason());
        assertEquals(3, rig.device.inFlightCount());

        final List<AllocationRef> gap = rig.claim("x", "y", "z");
        rig.store(rig.source(7, 9), List.of(gap.get(0), gap.get(2)));
        assertEquals(CoreEvent.SealReason.NOT_ADJACENT, rig.events.of(CoreEvent.BatchSealed.class).get(3).reason());
    }

    @Test
    void shouldWaitForMemoryHeldByAPendingWriteThenProceed() {
        final Rig rig = Rig.slots(2, 16);
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        final AllocationRef c = rig.claimOne("c");
        rig.storeValue(a, 1);
        rig.storeValue(b, 2);
        final AtomicReference<StoreResult> rc = rig.storeValue(c, 3);
        assertNull(rc.get(), "both slices are owned by pending writes");
        assertEquals(1, rig.events.of(CoreEvent.MemoryWait.class).size());
        rig.device.completeOldest();
        assertNotNull(rc.get(), "the store proceeds once the write that holds memory completes");
        rig.device.completeAll();
        assertEquals(3, rig.device.at(c.fileOffset(SLOT)));
    }

    @Test
    void shouldTrimOncePerGroupedStoreAfterAllSpansAreInserted() {
        final Rig rig = Rig.slots(4, 16);
        final List<AllocationRef> refs = rig.claim("a", "b", "c", "d");
        rig.store(rig.source(1, 2, 3, 4), refs);
        final List<CoreEvent.Trimmed> trims = rig.events.of(CoreEvent.Trimmed.class);
        assertEquals(1, trims.size());
        assertEquals(4 * SLOT, trims.getFirst().targetBytes(), "max(bytes stored, save target)");
        assertEquals(4 * SLOT, rig.server.tieredStore().residentBytes());
        final int trimAt = rig.events.indexOf(e -> e instanceof CoreEvent.Trimmed);
        final int lastInsert = rig.events.all().lastIndexOf(rig.events.of(CoreEvent.EntryInserted.class).getLast());
        assertTrue(trimAt > lastInsert);
    }

    @Test
    void shouldSurfaceAWriteErrorAndInvalidateTheKeys() {
        final Rig rig = Rig.slots(4, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        rig.commit(List.of(a));
        rig.device.fail(rig.device.oldest(IoOp.WRITE).ioId());
        assertFalse(rig.server.directory().isCurrent(a), "bytes that never reached L2 are not served");
        assertEquals(CoreEvent.RingEvictReason.WRITE_FAILED,
            rig.events.of(CoreEvent.RingEvicted.class).getFirst().reason());
        final AtomicReference<StoreResult> next = rig.storeValue(rig.claimOne("b"), 2);
        assertEquals(1, next.get().writeErrorsSurfaced());
    }

    @Test
    void shouldDrainOnlyWhenNoWriteIsPendingAndThenClose() {
        final Rig rig = Rig.slots(4, 16);
        final long before = rig.memory.liveBytes();
        rig.storeValue(rig.claimOne("a"), 1);
        final AtomicBoolean drained = new AtomicBoolean();
        rig.server.drain(() -> drained.set(true));
        assertFalse(drained.get());
        rig.device.completeAll();
        assertTrue(drained.get());
        rig.server.close();
        final long indexBuffer = Math.min(KvServer.INDEX_BUFFER_BYTES, KvServer.indexLayout(rig.config).deviceBytes());
        assertEquals(before + SLOT - 4 * SLOT - indexBuffer, rig.memory.liveBytes(),
            "the pool and the index buffer are returned");
    }

    @Test
    void shouldBoundIosInFlight() {
        final Rig rig = new Rig(CoreConfig.builder(SLOT).l2Bytes(32 * SLOT).l1Bytes(16 * SLOT)
            .coalesceStoreSpans(false).concurrentIos(2).groupedWriteBatchBytes(SLOT).maxReadBytes(SLOT).build());
        final List<AllocationRef> refs = rig.claim("a", "b", "c", "d", "e");
        rig.store(rig.source(1, 2, 3, 4, 5), refs);
        assertEquals(2, rig.device.inFlightCount());
        assertEquals(3, rig.server.tieredStore().ioQueued());
        assertEquals(5, rig.device.completeAll());
    }
}
