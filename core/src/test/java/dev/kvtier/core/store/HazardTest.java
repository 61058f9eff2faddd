package dev.kvtier.core.store;

import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.SpanPiece;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The two hazards of docs/design/STORAGE-CORE.md section 6 that the reference had and kvtier must not. */
class HazardTest {

    @Test
    void shouldNeverLetADelayedPromotionReplaceANewerStore() {
        final Rig rig = Rig.slots(2, 16);
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        rig.storeValue(a, 1);
        rig.storeValue(b, 2); // trims a out of L1
        rig.device.completeAll();
        rig.commit(List.of(a, b));
        assertFalse(rig.resident(a));

        final Rig.Loaded first = rig.load(a);
        final IoRequest read = rig.device.oldest(IoOp.READ);
        // A newer store of the same range lands while the read is in flight. The server boundary refuses other bytes
        // into a committed allocation (CommittedRewriteTest), and a rewrite of the same bytes (which it lets through)
        // cannot show which store won: this one goes to the tiered store directly, to test its own defence.
        final AtomicReference<StoreResult> newer = new AtomicReference<>();
        rig.server.tieredStore().store(800, rig.source(9), List.of(new StoreSpan(List.of(new SpanPiece(a, 0,
            a.fileOffset(SLOT), SLOT)))), List.of(), newer::set);
        assertEquals(List.of(a), newer.get().accepted());
        rig.device.complete(read.ioId());
        assertTrue(first.result().get().ok());
        assertEquals(1, rig.events.of(CoreEvent.PromotionDiscarded.class).size());
        assertEquals(CoreEvent.DiscardReason.SUPERSEDED,
            rig.events.of(CoreEvent.PromotionDiscarded.class).getFirst().reason());
        assertTrue(rig.events.of(CoreEvent.Promoted.class).isEmpty());

        final Rig.Loaded second = rig.load(a);
        assertTrue(second.done(), "served from L1");
        assertTrue(second.uniform(0, 9), "the newer store wins");
        rig.device.completeAll();
        assertEquals(9, rig.device.at(a.fileOffset(SLOT)));
    }

    @Test
    void shouldFailALoadCleanlyWhenTheRingReusesItsSlots() {
        final Rig rig = Rig.slots(2, 2);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        final AllocationRef b = rig.claimOne("b");
        rig.storeValue(b, 2); // trims a out of L1
        rig.device.completeAll();
        rig.commit(List.of(a, b));

        final Rig.Loaded loadA = rig.load(a);
        assertEquals(1, rig.server.directory().leases(a));
        final AllocationRef c = rig.claimOne("c"); // the ring evicts a, the oldest, although it is leased
        assertEquals(a.startSlot(), c.startSlot());
        assertEquals(CoreEvent.LoadFailure.LEASE_REVOKED, loadA.result().get().failure());
        rig.storeValue(c, 7);
        rig.device.completeAll(); // the old read lands after the failure: discarded, never inserted
        assertEquals(CoreEvent.DiscardReason.LOAD_FAILED,
            rig.events.of(CoreEvent.PromotionDiscarded.class).getFirst().reason());
        assertTrue(rig.events.of(CoreEvent.Promoted.class).isEmpty());

        rig.commit(List.of(c));
        final Rig.Loaded loadC = rig.load(c);
        rig.device.completeAll();
        assertTrue(loadC.result().get().ok());
        assertTrue(loadC.uniform(0, 7), "the new key's bytes, never the old key's");
        assertEquals(0, rig.server.directory().lookup(Rig.MODEL, List.of(Rig.key("a"))).prefixLength());
    }

    @Test
    void shouldNotInsertAPromotionWhoseChunkWasEvictedWhileTheReadWasInFlight() {
        final Rig rig = Rig.slots(2, 2);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 1);
        final AllocationRef b = rig.claimOne("b");
        rig.storeValue(b, 2);
        rig.device.completeAll();
        rig.commit(List.of(a, b));
        rig.load(a);
        final IoRequest read = rig.device.oldest(IoOp.READ);
        rig.claimOne("c");
        rig.device.complete(read.ioId());
        assertFalse(rig.resident(a), "no entry holds the evicted key's old bytes");
    }
}
