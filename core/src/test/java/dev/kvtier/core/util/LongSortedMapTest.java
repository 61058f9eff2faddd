package dev.kvtier.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LongSortedMapTest {

    @Test
    void answersAsATreeMapUnderRandomPutsAndRemovals() {
        for (final long spread : new long[] {50, 1_000, 1L << 40}) {
            final SplittableRandom random = new SplittableRandom(spread);
            final LongSortedMap<String> map = new LongSortedMap<>();
            final TreeMap<Long, String> tree = new TreeMap<>();
            for (int step = 0; step < 20_000; step++) {
                final long key = random.nextLong(-spread, spread);
                final int op = random.nextInt(6);
                if (op < 2) {
                    assertEquals(tree.remove(key), map.remove(key), "remove " + key);
                } else if (op == 2) {
                    final String value = "w" + step;
                    assertEquals(tree.putIfAbsent(key, value), map.putIfAbsent(key, value), "putIfAbsent " + key);
                } else {
                    final String value = "v" + step;
                    assertEquals(tree.put(key, value), map.put(key, value), "put " + key);
                }
                final long probe = random.nextLong(-spread - 2, spread + 2);
                assertSameAnswers(tree, map, probe);
            }
            assertEquals(List.copyOf(tree.values()), map.values());
        }
    }

    /** A recency order: a random key leaves and comes back as the newest, or a new newest key comes (put's append). */
    @Test
    void keysThatLeaveAndComeBackAsTheNewestAnswerAsATreeMap() {
        final SplittableRandom random = new SplittableRandom(7);
        final LongSortedMap<Long> map = new LongSortedMap<>();
        final TreeMap<Long, Long> tree = new TreeMap<>();
        long next = 0;
        for (int step = 0; step < 30_000; step++) {
            if (tree.isEmpty() || random.nextInt(3) == 0) {
                final long key = next++;
                assertEquals(tree.put(key, key), map.put(key, key), "put newest " + key);
            } else {
                final Long old = tree.ceilingKey(random.nextLong(next));
                final long moved = old == null ? tree.firstKey() : old;
                assertEquals(tree.remove(moved), map.remove(moved), "remove " + moved);
                final long key = next++;
                assertEquals(tree.putIfAbsent(key, moved), map.putIfAbsent(key, moved), "put back " + key);
            }
            assertEquals(tree.size(), map.size());
            assertSameAnswers(tree, map, random.nextLong(-1, next + 1));
        }
        assertEquals(List.copyOf(tree.values()), map.values());
    }

    @Test
    void keysInAscendingOrderFillWholeBlocksAndLeaveFromTheFront() {
        final LongSortedMap<Long> map = new LongSortedMap<>();
        final TreeMap<Long, Long> tree = new TreeMap<>();
        for (long k = 0; k < 10 * LongSortedMap.BLOCK + 3; k++) {
            map.put(k * 4096, k);
            tree.put(k * 4096, k);
            if (k % 3 == 2) {
                final long oldest = tree.firstKey();
                assertEquals(tree.remove(oldest), map.remove(oldest));
            }
        }
        for (long probe = -1; probe < 11 * LongSortedMap.BLOCK * 4096L; probe += 1_023) {
            assertSameAnswers(tree, map, probe);
        }
        assertEquals(List.copyOf(tree.values()), map.values());
    }

    @Test
    void theExtremeKeysAndAnEmptyMap() {
        final LongSortedMap<String> map = new LongSortedMap<>();
        assertTrue(map.isEmpty());
        assertNull(map.get(0));
        assertNull(map.floorValue(Long.MAX_VALUE));
        assertNull(map.ceilingValue(Long.MIN_VALUE));
        assertFalse(map.anyIn(Long.MIN_VALUE, Long.MAX_VALUE));
        assertNull(map.remove(7));
        map.put(Long.MIN_VALUE, "min");
        map.put(Long.MAX_VALUE, "max");
        assertNull(map.lowerValue(Long.MIN_VALUE));
        assertNull(map.higherValue(Long.MAX_VALUE));
        assertEquals("min", map.floorValue(0));
        assertEquals("max", map.ceilingValue(0));
        assertEquals("min", map.lowerValue(Long.MAX_VALUE));
        assertEquals("max", map.higherValue(Long.MIN_VALUE));
        assertEquals(List.of("min", "max"), map.values());
        assertThrows(IllegalArgumentException.class, () -> map.put(1, null));
        assertEquals(2, map.size());
    }

    private static <V> void assertSameAnswers(final NavigableMap<Long, V> tree, final LongSortedMap<V> map,
                                              final long probe) {
        assertEquals(tree.size(), map.size());
        assertEquals(value(tree.firstEntry()), map.firstValue(), "first");
        assertEquals(tree.get(probe), map.get(probe), "get " + probe);
        assertEquals(value(tree.floorEntry(probe)), map.floorValue(probe), "floor " + probe);
        assertEquals(value(tree.lowerEntry(probe)), map.lowerValue(probe), "lower " + probe);
        assertEquals(value(tree.ceilingEntry(probe)), map.ceilingValue(probe), "ceiling " + probe);
        assertEquals(value(tree.higherEntry(probe)), map.higherValue(probe), "higher " + probe);
        final long to = probe + 37;
        final List<V> in = new ArrayList<>();
        map.valuesIn(probe, to, in);
        assertEquals(List.copyOf(tree.subMap(probe, true, to, false).values()), in, "[" + probe + ", " + to + ")");
        assertEquals(!in.isEmpty(), map.anyIn(probe, to));
    }

    private static <V> V value(final Map.Entry<Long, V> entry) {
        return entry == null ? null : entry.getValue();
    }
}
