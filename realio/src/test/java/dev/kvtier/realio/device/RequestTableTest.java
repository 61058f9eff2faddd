package dev.kvtier.realio.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import org.junit.jupiter.api.Test;

/** The request table's transitions: each refuses to start from the wrong state. */
class RequestTableTest {
    private final RequestTable slots = new RequestTable(2);

    @Test
    void aRequestGoesFromAcceptedThroughItsPartsToReleased() {
        final int slot = slots.accept(5, IoOp.WRITE, 4096, 8192);
        slots.partIssued(slot, false);
        slots.partIssued(slot, true);
        slots.moved(slot, 4096);
        assertFalse(slots.partDone(slot));
        slots.moved(slot, 4096);
        assertTrue(slots.partDone(slot));
        assertEquals(8192, slots.result(slot));
        slots.release(slot);
        assertEquals(0, slots.used());
    }

    @Test
    void aFreeSlotIsNeitherCompletedNorReleased() {
        final int slot = slots.accept(5, IoOp.READ, 0, 4096);
        slots.partIssued(slot, true);
        slots.moved(slot, 4096);
        slots.partDone(slot);
        slots.release(slot);
        final IllegalStateException twice = assertThrows(IllegalStateException.class, () -> slots.release(slot));
        assertTrue(twice.getMessage().contains("holds no request"), twice.getMessage());
        assertThrows(IllegalStateException.class, () -> slots.partDone(slot));
        assertEquals(0, slots.used(), "the refused release freed nothing more");
    }

    @Test
    void aSlotWithAPartOutstandingIsNotReleased() {
        final int slot = slots.accept(5, IoOp.READ, 0, 4096);
        slots.partIssued(slot, true);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> slots.release(slot));
        assertTrue(e.getMessage().contains("1 parts outstanding"), e.getMessage());
    }

    @Test
    void theQueueIsNeverTakenFromEmpty() {
        assertThrows(IllegalStateException.class, slots::peekQueued);
        assertThrows(IllegalStateException.class, slots::dequeue);
        slots.enqueue(slots.accept(5, IoOp.FLUSH, 0, 0));
        slots.dequeue();
        assertThrows(IllegalStateException.class, slots::dequeue);
    }
}
