package dev.kvtier.core.store;

import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memory waiters (docs/design/STORAGE-CORE.md section 10): an operation waits in the queue once, in its place,
 * however often it is stepped while it waits. A load is stepped while it waits when one of its reads lands; it used to
 * queue a second time then, and a failure took only one of its places out of the queue, so a later store queued
 * behind a load that was over.
 */
class MemoryWaitersTest {

    @Test
    void shouldQueueALoadOnceWhenOneOfItsReadsLandsWhileItWaitsForMemory() {
        final Rig rig = Rig.slots(4, 8);
        final TieredStore tiered = rig.server.tieredStore();
        final List<AllocationRef> ab = rig.claim("a", "b1", "b2", "b3");
        rig.store(rig.source(1, 2, 3, 4), ab); // one entry of four slots
        rig.device.completeAll();
        rig.commit(ab);
        final List<AllocationRef> c = rig.claim("c1", "c2");
        rig.store(rig.source(5, 6), c); // evicts the four slots; its write stays pending and holds two of them

        // a to slot 0 and b1..b3 to slots 2..4 of the destination: two gaps, reads of one and three slots.
        final HeapMemory.Region dest = rig.memory.allocate("dest", 5 * SLOT);
        final AtomicReference<LoadResult> loaded = new AtomicReference<>();
        rig.server.load(900, List.of(LoadRange.whole(ab.get(0), SLOT, 0), LoadRange.whole(ab.get(1), SLOT, 2 * SLOT),
            LoadRange.whole(ab.get(2), SLOT, 3 * SLOT), LoadRange.whole(ab.get(3), SLOT, 4 * SLOT)), dest,
            loaded::set);
        assertEquals(1, tiered.memoryWaiters(), "the three-slot read waits for the memory c's write holds");

        // a's read lands: the load is resumed by it and woken from the queue, and still cannot reserve three slots.
        rig.device.complete(rig.device.oldest(IoOp.READ, 0).ioId());
        assertNull(loaded.get());
        assertEquals(1, tiered.memoryWaiters(), "the load waits once, however often it was stepped");

        rig.claim("d", "e", "f"); // the ring takes a's slots back: the waiting load fails
        assertEquals(LoadFailure.LEASE_REVOKED, loaded.get().failure());
        assertEquals(0, tiered.memoryWaiters(), "a failed load leaves the queue");
        final AllocationRef g = rig.claimOne("g");
        final AtomicReference<StoreResult> stored = rig.storeValue(g, 9);
        assertNotNull(stored.get(), "a store that fits does not queue behind a load that is over");
        assertEquals(List.of(g), stored.get().accepted());

        rig.device.completeAll();
        assertEquals(1, rig.events.of(CoreEvent.LoadFailed.class).size(), "the load ended once");
        assertEquals(0, tiered.memoryWaiters());
    }
}
