package dev.kvtier.core.store;

import dev.kvtier.core.value.LoadRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.value.AllocationRef;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A client may call straight back into the server from a callback: a load that fails because an allocation evicted
 * the chunk it leased is recomputed, and the engine allocates its keys at once. Found by the rare-paths swarm (ring
 * pressure, Zipf loads): the callback ran while the allocation that evicted the chunk was still placing its key, the
 * re-entrant allocation placed the same key, and the directory ended with two chunks for one key (the first orphaned
 * in the ring). The directory now tells of evictions once the operation is over.
 */
class ReentrantClientTest {
    private static final long SLOT = 4096;

    @Test
    void shouldLetALoadFailureCallbackAllocateTheKeyWhoseAllocationFailedTheLoad() {
        final CrashRig first = CrashRig.formatted(CrashRig.config(SLOT, 8, 2, CommitMode.L1));
        final AllocationRef a = first.claimOne("a");
        first.store(a, 1);
        first.commit(a);
        final AllocationRef b = first.claimOne("b");
        first.store(b, 2);
        first.commit(b);
        first.settle();
        // After a restart L1 is empty, so a load of "a" reads L2 and holds its lease while the read is in flight.
        final CrashRig rig = first.restart();
        final AtomicReference<List<AllocationResult>> fromCallback = new AtomicReference<>();
        final HeapMemory.Region dest = rig.memory.allocate("dest", SLOT);
        rig.server.load(7, List.of(LoadRange.whole(rig.found("a"), SLOT, 0)), dest,
            result -> fromCallback.set(rig.server.allocate(9, CrashRig.MODEL, List.of(CrashRig.key("k")), 1)));
        assertNull(fromCallback.get(), "the load waits for its read");

        final List<AllocationResult> outer = rig.server.allocate(8, CrashRig.MODEL, List.of(CrashRig.key("k")), 1);

        assertInstanceOf(AllocationResult.Claimed.class, outer.getFirst());
        assertNotNull(fromCallback.get(), "the eviction of a's chunk failed the load");
        assertEquals(List.of(new AllocationResult.Skipped(CrashRig.key("k"), CoreEvent.SkipReason.CLAIMED)),
            fromCallback.get(), "the callback sees k claimed by the allocation that evicted a");
        final List<AllocationRef> live = rig.server.directory().liveInAgeOrder();
        assertEquals(live.size(), live.stream().map(AllocationRef::key).distinct().count(), "one chunk a key: " + live);
        for (final AllocationRef r : live) {
            assertEquals(true, rig.server.directory().isCurrent(r),
                "every chunk in the ring is in the directory: " + r);
        }
        final List<CoreEvent> events = rig.events.all();
        final int allocated = events.indexOf(new CoreEvent.Allocated(8, CrashRig.key("k"),
            ((AllocationResult.Claimed) outer.getFirst()).ref().allocationId(), 0, 1));
        final int failed = events.indexOf(new CoreEvent.LoadFailed(7, CoreEvent.LoadFailure.LEASE_REVOKED));
        assertEquals(true, allocated >= 0 && failed > allocated, "the load fails once k is placed: " + events);
    }
}
