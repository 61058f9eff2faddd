package dev.kvtier.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The builder holds the reference defaults, derives the dependent ones from what is set, and validates once. */
class CoreConfigTest {
    private static final long SLOT = 2_359_296L;
    private static final long MIB = 1L << 20;

    @Test
    void shouldBuildTheReferenceDefaults() {
        final CoreConfig c = CoreConfig.builder(SLOT).build();
        assertEquals((10L << 30) / SLOT * SLOT, c.l2Bytes(), "10 GiB in whole slots");
        assertEquals(1L << 30, c.l1Bytes());
        assertEquals(20, c.headroomRatio());
        assertEquals(64 * MIB, c.groupedWriteBatchBytes());
        assertTrue(c.coalesceStoreSpans());
        assertEquals(8, c.concurrentIos());
        assertEquals(8, c.readBatchMax());
        assertEquals(64 * MIB, c.maxReadBytes());
        assertEquals(64 * MIB / SLOT * SLOT, c.stagingBatchBytes(), "64 MiB in whole slots");
        assertEquals(2 * c.stagingBatchBytes(), c.stagingPoolBytes());
        assertEquals(ReplacementKind.LRU, c.replacement());
        assertEquals(CommitMode.L1, c.commitMode());
        assertEquals(c, CoreConfig.defaults(SLOT));
    }

    @Test
    void shouldDeriveTheDependentDefaultsFromWhatIsSet() {
        final CoreConfig c = CoreConfig.builder(4096).l2Bytes(64 * 4096).stagingBatchBytes(3 * 4096).build();
        assertEquals(64 * 4096, c.l1Bytes(), "L1 = min(1 GiB, L2)");
        assertEquals(6 * 4096, c.stagingPoolBytes(), "two staging batches");
        assertEquals(128 * MIB, CoreConfig.builder(128 * MIB).build().stagingBatchBytes(), "at least one slot");
    }

    @Test
    void shouldKeepEveryKnobThroughToBuilder() {
        final CoreConfig c = CoreConfig.builder(4096).l2Bytes(64 * 4096).l1Bytes(5 * 4096).headroomRatio(3)
            .groupedWriteBatchBytes(2 * 4096).coalesceStoreSpans(false).concurrentIos(2).readBatchMax(3)
            .maxReadBytes(4 * 4096).stagingBatchBytes(4096).stagingPoolBytes(7 * 4096)
            .replacement(ReplacementKind.PREFIX_LRU).commitMode(CommitMode.DURABLE).build();
        assertEquals(c, c.toBuilder().build());
        final CoreConfig bigger = c.toBuilder().l2Bytes(128 * 4096).build();
        assertEquals(128 * 4096, bigger.l2Bytes());
        assertEquals(5 * 4096, bigger.l1Bytes(), "a set L1 does not follow L2");
        assertEquals(7 * 4096, bigger.stagingPoolBytes());
    }

    @Test
    void shouldNameTheBadValue() {
        assertEquals("l1Bytes must be positive, got 0", message(CoreConfig.builder(4096).l1Bytes(0)));
        assertEquals("l2Bytes (4096) must hold at least one slot of 8192 B",
            message(CoreConfig.builder(8192).l2Bytes(4096)));
        assertEquals("stagingPoolBytes (4096) must hold at least one staging batch of 8192 B",
            message(CoreConfig.builder(4096).stagingBatchBytes(8192).stagingPoolBytes(4096)));
        assertEquals("commitMode must be set, got null", message(CoreConfig.builder(4096).commitMode(null)));
        assertEquals("slotBytes must be positive, got 0", message(CoreConfig.builder(0)));
    }

    private static String message(final CoreConfig.Builder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }
}
