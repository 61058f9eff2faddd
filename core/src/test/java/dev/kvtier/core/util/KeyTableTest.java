package dev.kvtier.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyTableTest {

    private record Key(long hi, long lo) {}

    @Test
    void putGetRemoveOfOneKey() {
        final KeyTable<String> t = new KeyTable<>();
        assertNull(t.get(1, 2));
        assertNull(t.put(1, 2, "a"));
        assertEquals("a", t.get(1, 2));
        assertNull(t.get(2, 1), "the halves are not interchangeable");
        assertNull(t.get(1, 3));
        assertEquals("a", t.put(1, 2, "b"));
        assertEquals(1, t.size());
        assertTrue(t.containsKey(1, 2));
        assertEquals("b", t.remove(1, 2));
        assertNull(t.remove(1, 2));
        assertFalse(t.containsKey(1, 2));
        assertEquals(0, t.size());
    }

    @Test
    void aTableSizedForItsKeysHoldsThemAll() {
        for (final int expected : new int[] {0, 1, 2, 7, 8, 9, 100, 1000}) {
            final KeyTable<Integer> t = new KeyTable<>(expected);
            for (int i = 0; i < expected + 5; i++) {
                assertNull(t.put(i, ~i, i));
            }
            for (int i = 0; i < expected + 5; i++) {
                assertEquals(i, t.get(i, ~i));
            }
            assertEquals(expected + 5, t.size());
        }
        assertThrows(IllegalArgumentException.class, () -> new KeyTable<Integer>(-1));
    }

    @Test
    void aTableForAtMostSomeKeysStillGrowsPastThem() {
        for (final int bound : new int[] {0, 3, KeyTable.PRESIZED_KEYS_MAX + 1}) {
            final KeyTable<Integer> t = KeyTable.forAtMost(bound);
            final int keys = Math.min(bound, 1000) + 20;
            for (int i = 0; i < keys; i++) {
                assertNull(t.put(~i, i, i));
            }
            for (int i = 0; i < keys; i++) {
                assertEquals(i, t.get(~i, i));
            }
            assertEquals(keys, t.size());
        }
        assertThrows(IllegalArgumentException.class, () -> KeyTable.forAtMost(-1));
    }

    @Test
    void forEachValueVisitsEveryValueOnce() {
        final KeyTable<Long> t = new KeyTable<>();
        for (long i = 0; i < 300; i++) {
            t.put(i * 31, -i, i);
        }
        for (long i = 0; i < 300; i += 3) {
            t.remove(i * 31, -i);
        }
        final List<Long> seen = new ArrayList<>();
        t.forEachValue(seen::add);
        seen.sort(null);
        final List<Long> want = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            if (i % 3 != 0) {
                want.add(i);
            }
        }
        assertEquals(want, seen);
    }

    @Test
    void clearForgetsEveryKey() {
        final KeyTable<Integer> t = new KeyTable<>();
        for (int i = 0; i < 100; i++) {
            t.put(i, -i, i);
        }
        t.clear();
        assertEquals(0, t.size());
        for (int i = 0; i < 100; i++) {
            assertNull(t.get(i, -i));
        }
        assertNull(t.put(7, -7, 70));
        assertEquals(70, t.get(7, -7));
        assertEquals(1, t.size());
    }

    @Test
    void refusesNullValues() {
        assertThrows(IllegalArgumentException.class, () -> new KeyTable<String>().put(0, 0, null));
    }

    /** Random operations against a HashMap: a few keys (long probe runs, wrap-around, removals inside runs). */
    @Test
    void agreesWithAHashMapOverFewKeys() {
        agreesWithAHashMap(40, 200_000, 1);
    }

    /** Random operations against a HashMap: many keys (the table grows several times, then shrinks in use). */
    @Test
    void agreesWithAHashMapOverManyKeys() {
        agreesWithAHashMap(5_000, 300_000, 2);
    }

    /** Keys whose halves differ in one bit only, and keys equal to zero, all kept apart. */
    @Test
    void keepsNearKeysApart() {
        final KeyTable<Integer> t = new KeyTable<>();
        final List<Key> keys = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            keys.add(new Key(1L << bit, 0));
            keys.add(new Key(0, 1L << bit));
        }
        keys.add(new Key(0, 0));
        keys.add(new Key(-1, -1));
        for (int i = 0; i < keys.size(); i++) {
            assertNull(t.put(keys.get(i).hi(), keys.get(i).lo(), i));
        }
        for (int i = 0; i < keys.size(); i++) {
            assertEquals(i, t.get(keys.get(i).hi(), keys.get(i).lo()));
        }
        for (int i = 0; i < keys.size(); i += 2) {
            assertEquals(i, t.remove(keys.get(i).hi(), keys.get(i).lo()));
        }
        for (int i = 0; i < keys.size(); i++) {
            assertEquals(i % 2 == 0 ? null : i, t.get(keys.get(i).hi(), keys.get(i).lo()));
        }
        assertEquals(keys.size() / 2, t.size());
    }

    private static void agreesWithAHashMap(final int keyCount, final int steps, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Key[] keys = new Key[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = new Key(random.nextLong(), random.nextLong());
        }
        final KeyTable<Integer> table = new KeyTable<>();
        final Map<Key, Integer> model = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            final Key k = keys[random.nextInt(keyCount)];
            // Phases that mostly insert, then mostly remove, so the table both fills and empties.
            final boolean filling = (step / (steps / 10)) % 2 == 0;
            final int op = random.nextInt(10);
            if (op < (filling ? 6 : 3)) {
                assertEquals(model.put(k, step), table.put(k.hi(), k.lo(), step), "put at step " + step);
            } else if (op < 8) {
                assertEquals(model.remove(k), table.remove(k.hi(), k.lo()), "remove at step " + step);
            } else {
                assertEquals(model.get(k), table.get(k.hi(), k.lo()), "get at step " + step);
            }
            assertEquals(model.size(), table.size(), "size at step " + step);
        }
        for (final Key k : keys) {
            assertEquals(model.get(k), table.get(k.hi(), k.lo()));
        }
    }
}
