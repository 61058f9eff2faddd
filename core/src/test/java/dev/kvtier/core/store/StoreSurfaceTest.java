package dev.kvtier.core.store;

import dev.kvtier.core.value.LoadRange;
import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.testkit.RecordingSink;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What the tiered store tells the outside: the I/O and drain events a journal records, its counters, the load ranges it
 * refuses, and that a closed tiered store takes no input.
 */
class StoreSurfaceTest {

    @Test
    void shouldEmitEveryDataAndIndexIoItSubmitsAndCompletes() {
        final Rig rig = Rig.slots(8, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 4);
        final IoRequest w = rig.device.oldest(IoOp.WRITE);
        assertEquals(List.of(new CoreEvent.IoSubmitted(w.ioId(), IoOp.WRITE, a.fileOffset(SLOT), SLOT, 1)),
            rig.events.of(CoreEvent.IoSubmitted.class));
        assertEquals(1, rig.server.tieredStore().ioInFlight());
        rig.device.complete(w.ioId());
        assertEquals(List.of(new CoreEvent.IoCompleted(w.ioId(), IoOp.WRITE, a.fileOffset(SLOT), SLOT)),
            rig.events.of(CoreEvent.IoCompleted.class));
        assertEquals(0, rig.server.tieredStore().ioInFlight());

        rig.events.clear();
        rig.commit(List.of(a));
        final IoRequest record = rig.index.oldest(IoOp.WRITE);
        assertEquals(List.of(new CoreEvent.IndexIoSubmitted(record.ioId(), IoOp.WRITE, record.fileOffset(),
            record.lengthBytes())), rig.events.of(CoreEvent.IndexIoSubmitted.class));
    }

    @Test
    void shouldCountPendingAndCompletedWritesAndErrors() {
        final Rig rig = Rig.slots(8, 16);
        final TieredStore tiered = rig.server.tieredStore();
        assertSame(rig.config, tiered.config());
        assertEquals(rig.config.l1Bytes(), tiered.admission().l1Bytes());
        final List<AllocationRef> ab = rig.claim("a", "b");
        rig.storeValue(ab.get(0), 1);
        rig.storeValue(ab.get(1), 2);
        assertEquals(2, tiered.pendingWriteCount());
        assertEquals(2, tiered.pendingWrites().size());
        assertEquals(0, tiered.writesCompleted());
        rig.device.complete(rig.device.oldest(IoOp.WRITE).ioId());
        rig.device.fail(rig.device.oldest(IoOp.WRITE).ioId());
        assertEquals(0, tiered.pendingWriteCount());
        assertTrue(tiered.pendingWrites().isEmpty());
        assertEquals(2, tiered.writesCompleted(), "a failed write completes too");
        assertEquals(1, tiered.writeErrors());
        assertEquals(0, tiered.memoryWaiters());
    }

    @Test
    void shouldReportADrainOnlyOnceTheWritesFinished() {
        final Rig rig = Rig.slots(8, 16);
        rig.storeValue(rig.claimOne("a"), 1);
        final List<String> drained = new ArrayList<>();
        rig.server.drain(() -> drained.add("drained"));
        assertEquals(List.of(new CoreEvent.DrainRequested()), rig.events.of(CoreEvent.DrainRequested.class));
        assertTrue(drained.isEmpty());
        assertTrue(rig.events.of(CoreEvent.Drained.class).isEmpty());
        rig.device.completeAll();
        assertEquals(List.of("drained"), drained);
        assertEquals(List.of(new CoreEvent.Drained(1)), rig.events.of(CoreEvent.Drained.class));
    }

    @Test
    void shouldCountAnOperationWaitingForMemory() {
        final CoreConfig config = CoreConfig.builder(SLOT).l2Bytes(16 * SLOT).l1Bytes(SLOT).build();
        final Rig rig = new Rig(config);
        final List<AllocationRef> ab = rig.claim("a", "b");
        rig.storeValue(ab.get(0), 1);
        final AtomicReference<StoreResult> second = rig.storeValue(ab.get(1), 2);
        assertEquals(1, rig.server.tieredStore().memoryWaiters(), "L1 of one slot is held by the first write");
        assertNull(second.get());
        rig.device.completeAll();
        assertEquals(0, rig.server.tieredStore().memoryWaiters());
        assertEquals(List.of(ab.get(1)), second.get().accepted());
    }

    @Test
    void shouldRefuseALoadRangePastItsAllocationOrItsDestination() {
        final Rig rig = Rig.slots(8, 16);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        rig.commit(List.of(a));
        final HeapMemory.Region dest = rig.memory.allocate("dest", 4 * SLOT);
        assertThrows(IllegalArgumentException.class, () -> rig.server.load(1, List.of(new LoadRange(a,
            a.fileOffset(SLOT), 2 * SLOT, 0)), dest, r -> {}));
        assertThrows(IllegalArgumentException.class, () -> rig.server.load(2, List.of(new LoadRange(a,
            a.fileOffset(SLOT), SLOT, 3 * SLOT + 4096)), dest, r -> {}));
        final AtomicReference<LoadResult> ok = new AtomicReference<>();
        rig.server.load(3, List.of(new LoadRange(a, a.fileOffset(SLOT), SLOT, 3 * SLOT)), dest, ok::set);
        rig.device.completeAll();
        assertTrue(ok.get() != null);
        assertEquals(SLOT, rig.events.of(CoreEvent.LoadRequested.class).getLast().bytes());
        assertEquals(a.fileOffset(SLOT) + SLOT, new LoadRange(a, a.fileOffset(SLOT), SLOT, 0).fileEnd());
        assertThrows(IllegalArgumentException.class, () -> new LoadRange(a, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadRange(a, -1, SLOT, 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadRange(a, 0, SLOT, -1));
        assertEquals(0, new LoadRange(a, 0, 1, 0).fileOffset(), "offset and destination 0 are valid");
    }

    @Test
    void shouldRefuseInputOnceClosedAndADeviceSmallerThanTheRing() {
        final Rig rig = Rig.slots(8, 16);
        final TieredStore tiered = rig.server.tieredStore();
        tiered.close();
        final HeapMemory.Region src = rig.source(1);
        assertThrows(IllegalStateException.class, () -> tiered.store(1, src, List.of(), List.of(), r -> {}));
        assertThrows(IllegalStateException.class, () -> tiered.load(2, List.of(), src, r -> {}));

        final CoreConfig config = rig.config;
        final L2Directory dir = new L2Directory(SLOT, config.l2Slots(), new RecordingSink());
        assertThrows(IllegalArgumentException.class, () -> new TieredStore(config, new HeapMemory(),
            new ManualDevice(config.l2Bytes() - SLOT), new ManualDevice(SLOT), new RecordingSink(), dir));
    }
}
