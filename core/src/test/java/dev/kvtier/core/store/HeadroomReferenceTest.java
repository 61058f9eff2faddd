package dev.kvtier.core.store;

import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference's headroom tests (docs/design/STORAGE-CORE.md section 3), block = one 4 KiB slot. */
class HeadroomReferenceTest {

    @Test
    void shouldLeaveNineteenOfTwentySingleBlockStoresInATwentyBlockL1() {
        final Rig rig = Rig.slots(20, 64);
        final List<AllocationRef> refs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            final AllocationRef a = rig.claimOne("k" + i);
            refs.add(a);
            rig.storeValue(a, i + 1);
            rig.device.completeAll();
        }
        assertEquals(19 * SLOT, rig.server.tieredStore().residentBytes());
        assertFalse(rig.resident(refs.getFirst()), "the least recently stored block is trimmed");
        for (int i = 1; i < 20; i++) {
            assertTrue(rig.resident(refs.get(i)));
        }
    }

    @Test
    void shouldUseTheReservedBlockForAPromotionAndEvictItFirst() {
        final Rig rig = Rig.slots(5, 64);
        final AllocationRef e = rig.claimOne("e");
        final AllocationRef f = rig.claimOne("f");
        final AllocationRef a = rig.claimOne("a");
        final AllocationRef b = rig.claimOne("b");
        final AllocationRef c = rig.claimOne("c");
        final AllocationRef d = rig.claimOne("d");
        int v = 1;
        for (final AllocationRef r : List.of(e, f, a, b, c, d)) {
            rig.storeValue(r, v++);
            rig.device.completeAll();
        }
        rig.commit(List.of(e, f, a, b, c, d));
        assertEquals(4 * SLOT, rig.server.tieredStore().residentBytes(), "stores stop at the save target");
        assertFalse(rig.resident(e));

        final Rig.Loaded le = rig.load(e);
        rig.device.completeAll();
        assertTrue(le.result().get().ok());
        assertTrue(le.uniform(0, 1));
        assertEquals(5 * SLOT, rig.server.tieredStore().residentBytes(), "the promotion uses the reserved block");

        final Rig.Loaded lf = rig.load(f);
        rig.device.completeAll();
        assertTrue(lf.uniform(0, 2));
        assertFalse(rig.resident(e), "f evicts e, the headroom entry");
        for (final AllocationRef r : List.of(a, b, c, d, f)) {
            assertTrue(rig.resident(r));
        }

        final Rig.Loaded lba = rig.load(b, a);
        assertTrue(lba.done(), "hits complete without I/O");
        assertEquals(2 * SLOT, lba.result().get().hitBytes());
        assertTrue(lba.uniform(0, 4) && lba.uniform(1, 3));

        final int readsBefore = countReads(rig);
        final Rig.Loaded again = rig.load(e);
        assertEquals(readsBefore + 1, countReads(rig), "e reads L2 again");
        rig.device.completeAll();
        assertTrue(again.uniform(0, 1));
        final List<Long> reserveEvictions = rig.events.of(CoreEvent.EntryEvicted.class).stream()
            .filter(x -> x.reason() == CoreEvent.L1EvictReason.RESERVE).map(CoreEvent.EntryEvicted::fileOffset)
            .toList();
        assertEquals(List.of(e.fileOffset(SLOT), f.fileOffset(SLOT)), reserveEvictions,
            "promotions only ever evicted headroom entries, never a, b, c or d");
    }

    private static int countReads(final Rig rig) {
        return (int) rig.device.history().stream().filter(r -> r.op() == IoOp.READ).count();
    }
}
