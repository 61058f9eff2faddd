package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IdRingTest {

    @Test
    void shouldAgreeWithAHashMapUnderASlidingWindowWithStragglersAndFarIds() {
        for (final int expected : new int[] {1, 8, 100}) {
            final IdRing<Long> ring = new IdRing<>(expected);
            final Map<Long, Long> model = new HashMap<>();
            final SplittableRandom random = new SplittableRandom(expected);
            long next = 0;
            long oldest = 0;
            for (int op = 0; op < 200_000; op++) {
                final int what = random.nextInt(10);
                final long id;
                if (what < 4) {
                    id = next++; // a new allocation
                } else if (what < 6) {
                    id = oldest++; // the ring evicts the oldest
                } else if (what < 7) {
                    id = random.nextLong(Math.max(1, next)); // a straggler: any id seen so far
                } else if (what < 8) {
                    id = next + random.nextLong(1 << 20); // far ahead (recovered ids)
                } else {
                    id = Math.max(0, next - 1 - random.nextInt(4)); // a recent one (a commit)
                }
                final int action = random.nextInt(3);
                if (what < 4 || what == 7 || action == 0) {
                    final long value = random.nextLong();
                    ring.put(id, value);
                    model.put(id, value);
                } else if (what < 6 || action == 1) {
                    assertEquals(model.remove(id), ring.remove(id), "remove " + id);
                } else {
                    assertEquals(model.get(id), ring.get(id), "get " + id);
                }
                assertEquals(model.size(), ring.size());
            }
            for (final Map.Entry<Long, Long> e : model.entrySet()) {
                assertEquals(e.getValue(), ring.get(e.getKey()));
            }
            assertTrue(ring.overflowing() > 0, "the test reached the overflow");
        }
    }

    @Test
    void shouldKeepAWindowOfConsecutiveIdsInItsPositionsWithoutOverflow() {
        final IdRing<String> ring = new IdRing<>(1_000);
        for (long id = 0; id < 100_000; id++) {
            ring.put(id, "a" + id);
            if (id >= 1_000) {
                assertEquals("a" + (id - 1_000), ring.remove(id - 1_000));
            }
        }
        assertEquals(1_000, ring.size());
        assertEquals(0, ring.overflowing());
        assertEquals("a99999", ring.get(99_999));
        assertEquals(null, ring.get(98_999));
    }

    @Test
    void shouldRefuseNullValuesAndNegativeSizes() {
        assertThrows(IllegalArgumentException.class, () -> new IdRing<String>(8).put(1, null));
        assertThrows(IllegalArgumentException.class, () -> new IdRing<String>(-1));
    }
}
