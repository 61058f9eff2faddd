package dev.kvtier.core.server;

import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.testkit.RecordingSink;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.SpanPiece;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The server boundary: which spans it drops before they reach the store (and so before coalescing), release of
 * claims, and shutdown's refusals and its failed data flush.
 */
class KvServerTest {

    @Test
    void shouldRejectASpanOutsideItsAllocationAndWriteNothing() {
        final Rig rig = Rig.slots(4, 8);
        final List<AllocationRef> ab = rig.claim("a", "b");
        final AllocationRef a = ab.get(0);
        final AtomicReference<StoreResult> r = rig.storeSpans(rig.source(1),
            List.of(new SpanPiece(a, 0, ab.get(1).fileOffset(SLOT), SLOT)));
        assertEquals(List.of(a), r.get().rejected());
        assertTrue(r.get().accepted().isEmpty());
        final CoreEvent.SpanRejected rejected = rig.events.of(CoreEvent.SpanRejected.class).getFirst();
        assertEquals(RejectReason.OUTSIDE_ALLOCATION, rejected.reason());
        assertEquals(a.allocationId(), rejected.allocationId());
        assertEquals(0, rig.device.history().size(), "nothing reaches L2");
        assertEquals(0, rig.server.tieredStore().residentBytes(), "nothing reaches L1");
    }

    @Test
    void shouldRejectASpanThatEndsPastItsAllocation() {
        final Rig rig = Rig.slots(4, 8);
        final AllocationRef a = rig.claimOne("a");
        final AtomicReference<StoreResult> r = rig.storeSpans(rig.source(1, 1),
            List.of(new SpanPiece(a, 0, a.fileOffset(SLOT), 2 * SLOT)));
        assertEquals(List.of(a), r.get().rejected());
        assertEquals(RejectReason.OUTSIDE_ALLOCATION, rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
    }

    @Test
    void shouldRejectASpanReadingPastItsSource() {
        final Rig rig = Rig.slots(4, 8);
        final AllocationRef a = rig.claimOne("a");
        final AtomicReference<StoreResult> r = rig.storeSpans(rig.source(1),
            List.of(new SpanPiece(a, SLOT, a.fileOffset(SLOT), SLOT)));
        assertEquals(List.of(a), r.get().rejected());
        assertEquals(RejectReason.MISALIGNED, rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
    }

    @Test
    void shouldDropAStaleSpanBeforeCoalescing() {
        final Rig rig = Rig.slots(4, 2);
        final AllocationRef a = rig.claimOne("a");
        rig.claim("b", "c"); // ring of 2: c evicts a
        rig.events.clear();
        final AtomicReference<StoreResult> r = rig.storeValue(a, 5);
        assertEquals(List.of(a), r.get().rejected());
        final List<CoreEvent> events = rig.events.all();
        assertEquals(RejectReason.STALE, rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
        final CoreEvent.SpansCoalesced coalesced = rig.events.of(CoreEvent.SpansCoalesced.class).getFirst();
        assertEquals(1, coalesced.spansIn());
        assertEquals(0, coalesced.spansOut(), "the stale span never reaches the coalescer");
        assertTrue(events.indexOf(rig.events.of(CoreEvent.SpanRejected.class).getFirst()) < events.indexOf(coalesced),
            "rejected at the boundary, before coalescing");
    }

    @Test
    void shouldDropASpanLargerThanL1BeforeCoalescing() {
        final Rig rig = Rig.slots(2, 16);
        final AllocationRef a = claimed(rig.server.allocate(100, Rig.MODEL, List.of(Rig.key("a")), 4).getFirst());
        final AtomicReference<StoreResult> r = rig.storeSpans(rig.source(1, 1, 1, 1),
            List.of(new SpanPiece(a, 0, a.fileOffset(SLOT), 4 * SLOT)));
        assertEquals(List.of(a), r.get().rejected());
        assertEquals(RejectReason.LARGER_THAN_L1, rig.events.of(CoreEvent.SpanRejected.class).getFirst().reason());
        assertEquals(0, rig.events.of(CoreEvent.SpansCoalesced.class).getFirst().spansOut());
        assertEquals(0, rig.device.history().size());
    }

    @Test
    void shouldReleaseOnlyAnUncommittedClaim() {
        final Rig rig = Rig.slots(4, 8);
        final List<AllocationRef> ab = rig.claim("a", "b");
        rig.commit(List.of(ab.get(1)));
        assertFalse(rig.server.release(ab.get(1)), "a committed allocation is not a claim");
        assertTrue(rig.server.release(ab.get(0)));
        assertFalse(rig.server.release(ab.get(0)), "released once");
    }

    @Test
    void shouldRefuseInputBeforeOpenAndShutdownTwice() {
        final CoreConfig config = Rig.slots(4, 8).config;
        final RecordingSink events = new RecordingSink();
        final KvServer server = new KvServer(config, new HeapMemory(), new ManualDevice(config.l2Bytes()),
            new ManualDevice(KvServer.indexLayout(config).deviceBytes()), events);
        assertSame(config, server.config());
        assertFalse(server.isOpen());
        assertThrows(IllegalStateException.class, () -> server.shutdown(e -> {}));
        assertThrows(IllegalStateException.class, () -> server.lookup(Rig.MODEL, List.of(Rig.key("a"))));
        assertTrue(events.all().isEmpty(), "a refused shutdown emits nothing");

        final Rig rig = Rig.slots(4, 8);
        rig.server.shutdown(e -> {});
        assertEquals(1, rig.events.of(CoreEvent.ShutdownRequested.class).size());
        assertFalse(rig.server.isOpen());
        assertThrows(IllegalStateException.class, () -> rig.server.shutdown(e -> {}));
        assertEquals(1, rig.events.of(CoreEvent.ShutdownRequested.class).size());
    }

    @Test
    void shouldReportAFailedDataFlushAtShutdownAndNotTouchTheIndex() {
        final Rig rig = Rig.slots(4, 8);
        final AllocationRef a = rig.claimOne("a");
        rig.storeValue(a, 3);
        rig.device.completeAll();
        rig.index.completeAll();
        final int indexIos = rig.index.history().size();
        final AtomicReference<String> done = new AtomicReference<>("pending");
        rig.server.shutdown(done::set);
        assertEquals(List.of(new CoreEvent.ShutdownRequested()), rig.events.of(CoreEvent.ShutdownRequested.class));
        rig.device.fail(rig.device.oldest(IoOp.FLUSH).ioId());
        assertTrue(done.get() != null && !"pending".equals(done.get()), "done names the failure: " + done.get());
        assertEquals(List.of(new CoreEvent.ShutdownCompleted(false)),
            rig.events.of(CoreEvent.ShutdownCompleted.class));
        assertEquals(indexIos, rig.index.history().size(), "no index I/O after a failed data flush");
    }

    @Test
    void shouldShutDownDurablyWithNothingStored() {
        final Rig rig = Rig.slots(4, 8);
        final AtomicReference<String> done = new AtomicReference<>("pending");
        rig.server.shutdown(done::set);
        rig.device.completeAll();
        rig.index.completeAll();
        assertNull(done.get());
        assertEquals(List.of(new CoreEvent.ShutdownCompleted(true)),
            rig.events.of(CoreEvent.ShutdownCompleted.class));
    }

    private static AllocationRef claimed(final AllocationResult result) {
        if (result instanceof AllocationResult.Claimed c) {
            return c.ref();
        }
        throw new AssertionError("not claimed: " + result);
    }
}
