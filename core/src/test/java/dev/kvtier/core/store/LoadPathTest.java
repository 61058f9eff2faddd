package dev.kvtier.core.store;

import dev.kvtier.core.value.LoadRange;
import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LoadPathTest {

    @Test
    void shouldStitchAdjacentEntriesAndServeASubRange() {
        final Rig rig = Rig.slots(8, 16);
        final AllocationRef big = rig.claim("big").getFirst();
        final List<AllocationRef> ab = rig.claim("a", "b");
        rig.store(rig.source(1, 2), ab); // one coalesced entry over two slots
        rig.commit(ab);
        // Sub-range: only b's half of that entry.
        final HeapMemory.Region dest = rig.memory.allocate("d", SLOT);
        final AtomicReference<LoadResult> r = new AtomicReference<>();
        rig.server.load(900, List.of(LoadRange.whole(ab.get(1), SLOT, 0)), dest, r::set);
        assertTrue(r.get().ok());
        assertEquals(2, dest.at(0));
        assertEquals(SLOT, r.get().hitBytes());
        assertTrue(big.startSlot() < ab.get(0).startSlot());
    }

    @Test
    void shouldWaitForAPendingWriteThatOverlapsAGap() {
        final Rig rig = Rig.slots(2, 16);
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        rig.storeValue(a, 1);
        final IoRequest writeA = rig.device.oldest(IoOp.WRITE);
        rig.storeValue(b, 2); // trim evicts a while its write is pending
        rig.commit(List.of(a, b));
        assertFalse(rig.resident(a));
        final Rig.Loaded loaded = rig.load(a);
        assertEquals(1, rig.events.of(CoreEvent.LoadWaitsForWrite.class).size());
        assertNull(rig.device.oldest(IoOp.READ), "no read under a pending write to the same bytes");
        rig.device.complete(writeA.ioId());
        final IoRequest read = rig.device.oldest(IoOp.READ);
        assertEquals(a.fileOffset(SLOT), read.fileOffset());
        rig.device.completeAll();
        assertTrue(loaded.result().get().ok());
        assertTrue(loaded.uniform(0, 1));
    }

    @Test
    void shouldCompleteAGroupedLoadLargerThanL1() {
        final Rig rig = Rig.slots(4, 32);
        final List<AllocationRef> all = new ArrayList<>();
        for (int g = 0; g < 3; g++) {
            final List<AllocationRef> refs = rig.claim("k" + g + "a", "k" + g + "b", "k" + g + "c", "k" + g + "d");
            rig.store(rig.source(4 * g + 1, 4 * g + 2, 4 * g + 3, 4 * g + 4), refs);
            rig.device.completeAll();
            all.addAll(refs);
        }
        rig.commit(all);
        final Rig.Loaded loaded = rig.load(all);
        rig.device.completeAll();
        assertTrue(loaded.result().get().ok(), "12 slots through a 4-slot L1");
        for (int i = 0; i < 12; i++) {
            assertTrue(loaded.uniform(i, i + 1), "slot " + i);
        }
        assertTrue(rig.server.tieredStore().residentBytes() <= 4 * SLOT);
    }

    @Test
    void shouldBoundReadBatchesByReadBatchMax() {
        final Rig rig = new Rig(CoreConfig.builder(SLOT).l2Bytes(32 * SLOT).l1Bytes(16 * SLOT).readBatchMax(2)
            .groupedWriteBatchBytes(SLOT).maxReadBytes(SLOT).build());
        final List<AllocationRef> refs = rig.claim("a", "b", "c", "d", "e");
        final List<AllocationRef> filler = rig.claim("f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10",
            "f11", "f12", "f13", "f14", "f15", "f16");
        rig.store(rig.source(1, 2, 3, 4, 5), refs);
        rig.device.completeAll();
        for (final AllocationRef f : filler) {
            rig.storeValue(f, 9);
            rig.device.completeAll();
        }
        rig.commit(refs);
        final Rig.Loaded loaded = rig.load(refs);
        assertEquals(2, rig.device.inFlightCount(), "two reads a batch");
        rig.device.completeOldest();
        assertEquals(1, rig.device.inFlightCount(), "the next batch waits for the whole batch");
        rig.device.completeAll();
        assertTrue(loaded.result().get().ok());
        for (int i = 0; i < 5; i++) {
            assertTrue(loaded.uniform(i, i + 1));
        }
    }

    @Test
    void shouldFailALoadOfAKeyThatIsNotCommitted() {
        final Rig rig = Rig.slots(4, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        final Rig.Loaded loaded = rig.load(a);
        assertEquals(CoreEvent.LoadFailure.NOT_COMMITTED, loaded.result().get().failure());
    }

    @Test
    void shouldFailALoadOnAReadErrorAndFreeItsSlices() {
        final Rig rig = Rig.slots(2, 16);
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        rig.storeValue(a, 1);
        rig.storeValue(b, 2);
        rig.device.completeAll();
        rig.commit(List.of(a, b));
        final long usedBefore = rig.server.tieredStore().l1().pool().usedBytes();
        final Rig.Loaded loaded = rig.load(a);
        rig.device.fail(rig.device.oldest(IoOp.READ).ioId());
        assertEquals(CoreEvent.LoadFailure.READ_ERROR, loaded.result().get().failure());
        assertTrue(rig.server.tieredStore().l1().pool().usedBytes() <= usedBefore, "the read's slice is freed");
        assertEquals(0, rig.server.directory().leases(a), "the lease is returned");
    }
}
