package dev.kvtier.core.geometry;

import dev.kvtier.core.value.PrefixKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class GeometryTest {

    /** The same values the record's generated methods gave, so hash-keyed collections behave as before. */
    @Test
    void shouldHashAndCompareKeysAsTheGeneratedRecordMethodsDid() {
        record Generated(long hi, long lo) {}
        final long[] values = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x9E3779B97F4A7C15L, 42};
        for (final long hi : values) {
            for (final long lo : values) {
                assertEquals(new Generated(hi, lo).hashCode(), new PrefixKey(hi, lo).hashCode());
                assertEquals(new PrefixKey(hi, lo), new PrefixKey(hi, lo));
                assertNotEquals(new PrefixKey(hi, lo), new PrefixKey(hi, lo + 1));
                assertNotEquals(new PrefixKey(hi, lo), new PrefixKey(hi + 1, lo));
            }
        }
        assertNotEquals(new PrefixKey(1, 2), (Object) "01");
    }

    @Test
    void shouldGiveQwen3SlotOf2359296Bytes() {
        assertEquals(2_359_296L, ModelGeometry.QWEN3_8B_BF16.slotBytes());
        assertEquals(576 * 4096L, ModelGeometry.QWEN3_8B_BF16.slotBytes());
    }

    @Test
    void shouldRejectGeometryWhoseSlotIsNotAligned() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new ModelGeometry("odd", 1, 100, 1, 1, 2));
        assertTrue(e.getMessage().contains("4096"), e.getMessage());
    }

    @Test
    void shouldRejectNonPositiveDimensions() {
        assertThrows(IllegalArgumentException.class, () -> new ModelGeometry("m", 0, 128, 36, 16, 2));
    }

    @Test
    void shouldCountOnlyFullBlocks() {
        assertEquals(512, ModelGeometry.QWEN3_8B_BF16.fullBlocks(8192));
        assertEquals(512, ModelGeometry.QWEN3_8B_BF16.fullBlocks(8207));
    }

    @Test
    void shouldRoundToAlignment() {
        assertEquals(0, Alignment.up(0));
        assertEquals(4096, Alignment.up(1));
        assertEquals(8192, Alignment.up(4097));
        assertEquals(4096, Alignment.down(8191));
        assertThrows(IllegalArgumentException.class, () -> Alignment.requireAligned("x", 100));
    }

    @Test
    void shouldGiveEqualKeysForEqualPrefixesOnly() {
        final int[] a = tokens(64, 7);
        final int[] b = a.clone();
        b[40] = 99; // block 2 differs (16 tokens a block)
        final PrefixKey[] ka = PrefixKeys.of(1, a, 16);
        final PrefixKey[] kb = PrefixKeys.of(1, b, 16);
        assertEquals(4, ka.length);
        assertEquals(ka[0], kb[0]);
        assertEquals(ka[1], kb[1]);
        assertNotEquals(ka[2], kb[2]);
        assertNotEquals(ka[3], kb[3], "a key covers its whole prefix, so every later key differs too");
    }

    @Test
    void shouldNotKeyATrailingPartialBlock() {
        assertEquals(3, PrefixKeys.of(1, tokens(63, 1), 16).length);
    }

    @Test
    void shouldSeparateKeySpacesBySeed() {
        final int[] t = tokens(32, 3);
        assertNotEquals(PrefixKeys.of(1, t, 16)[0], PrefixKeys.of(2, t, 16)[0]);
        assertArrayEquals(PrefixKeys.of(1, t, 16), PrefixKeys.of(1, t, 16));
    }

    @Test
    void shouldChainKeysSoBlockOrderMatters() {
        final int[] t = tokens(32, 5);
        final int[] swapped = new int[32];
        System.arraycopy(t, 16, swapped, 0, 16);
        System.arraycopy(t, 0, swapped, 16, 16);
        assertNotEquals(PrefixKeys.of(1, t, 16)[1], PrefixKeys.of(1, swapped, 16)[1]);
    }

    private static int[] tokens(final int n, final int base) {
        final int[] t = new int[n];
        Arrays.setAll(t, i -> base * 1000 + i);
        return t;
    }
}
