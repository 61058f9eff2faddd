package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.config.CoreConfig;
import org.junit.jupiter.api.Test;

/**
 * SpecModel's formulas against values worked out by hand from docs/design/STORAGE-CORE.md: the headroom is L1 over the
 * ratio, rounded up to whole pages and at least one page; the read bound is maxReadBytes (at most L1) in whole slots,
 * at least one slot.
 */
class SpecModelTest {
    private static final long S = 4096;

    private static long headroom(final long l1Bytes, final int ratio) {
        return SpecModel.headroomBytes(CoreConfig.builder(S).l2Bytes(8 * l1Bytes).l1Bytes(l1Bytes)
            .headroomRatio(ratio).build());
    }

    private static long readBound(final long slotBytes, final long maxReadBytes) {
        return SpecModel.readBoundBytes(CoreConfig.builder(slotBytes).l2Bytes(64 * slotBytes).l1Bytes(2 * slotBytes)
            .maxReadBytes(maxReadBytes).build());
    }

    @Test
    void headroomIsL1OverTheRatioRoundedUpToWholePages() {
        assertEquals(4 * S, headroom(16 * S, 4), "l1 / ratio exactly: no rounding up");
        assertEquals(2 * S, headroom(2049 * S, 2048), "ceil(l1 / ratio) is 4098 B: two pages");
        assertEquals(S, headroom(4 * S, 20), "at least one page");
        assertEquals(S, headroom(S, 1), "at most l1");
    }

    @Test
    void readBoundIsMaxReadBytesInWholeSlotsAndAtLeastOneSlot() {
        assertEquals(S, readBound(S, S));
        assertEquals(2 * S, readBound(2 * S, 3 * S), "3 pages hold one slot of 2 pages");
        assertEquals(2 * S, readBound(2 * S, S), "less than a slot: one slot");
        assertEquals(4 * S, readBound(2 * S, 64 * S), "at most l1");
    }
}
