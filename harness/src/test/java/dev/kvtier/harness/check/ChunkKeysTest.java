package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChunkKeysTest {

    private record Key(long hi, long lo) {}

    /** What the table must hold for a key. */
    private static final class Entry {
        final long allocationId;
        final int modelId;
        final String chunk;
        boolean committed;

        Entry(final long allocationId, final int modelId, final String chunk) {
            this.allocationId = allocationId;
            this.modelId = modelId;
            this.chunk = chunk;
        }
    }

    @Test
    void aKeyCarriesItsAllocationModelCommitAndChunk() {
        final ChunkKeys<String> t = new ChunkKeys<>(4);
        assertEquals(-1, t.find(1, 2));
        final int p = t.insert(1, 2, 77, -3, "c");
        assertEquals(p, t.find(1, 2));
        assertEquals(-1, t.find(2, 1), "the halves are not interchangeable");
        assertEquals(77, t.allocationId(p));
        assertEquals(-3, t.modelId(p), "a negative model id survives the packing");
        assertFalse(t.committed(p));
        t.commit(p);
        assertTrue(t.committed(p));
        assertEquals(-3, t.modelId(p), "committing keeps the model");
        assertSame("c", t.chunk(p));
        assertThrows(IllegalStateException.class, () -> t.insert(1, 2, 78, 0, "d"));
        assertThrows(IllegalArgumentException.class, () -> t.insert(3, 4, 1, 0, null));
        t.remove(p);
        assertEquals(-1, t.find(1, 2));
        assertEquals(0, t.size());
        assertThrows(IllegalArgumentException.class, () -> new ChunkKeys<String>(-1));
    }

    /**
     * Random inserts, commits and removals against a map, from a table sized far too small (it grows) and with keys
     * drawn from a small range (long probe runs, so removals shift entries back across the table's wrap).
     */
    @Test
    void randomOperationsAgreeWithAMap() {
        for (final long seed : new long[] {1, 2, 3, 4}) {
            final SplittableRandom random = new SplittableRandom(seed);
            final ChunkKeys<String> t = new ChunkKeys<>(seed == 1 ? 0 : 64);
            final Map<Key, Entry> model = new HashMap<>();
            final List<Key> live = new ArrayList<>();
            for (int step = 0; step < 40_000; step++) {
                final Key k = new Key(random.nextInt(8), random.nextLong(600));
                final int p = t.find(k.hi(), k.lo());
                final Entry e = model.get(k);
                assertEquals(e == null, p < 0, "step " + step + ": is " + k + " live?");
                final int op = random.nextInt(10);
                if (e == null && op < 6) {
                    final Entry added = new Entry(random.nextLong(), random.nextInt(), "chunk " + step);
                    final int at = t.insert(k.hi(), k.lo(), added.allocationId, added.modelId, added.chunk);
                    assertEquals(at, t.find(k.hi(), k.lo()));
                    model.put(k, added);
                    live.add(k);
                } else if (e != null && op < 4) {
                    t.commit(p);
                    e.committed = true;
                } else if (e != null) {
                    t.remove(p);
                    model.remove(k);
                    live.remove(k);
                }
                if (step % 1_000 == 0) {
                    assertAllAgree(t, model, live);
                }
            }
            assertAllAgree(t, model, live);
        }
    }

    private static void assertAllAgree(final ChunkKeys<String> t, final Map<Key, Entry> model, final List<Key> live) {
        assertEquals(model.size(), t.size());
        for (final Key k : live) {
            final Entry e = model.get(k);
            final int p = t.find(k.hi(), k.lo());
            assertTrue(p >= 0, k + " is live");
            assertEquals(e.allocationId, t.allocationId(p));
            assertEquals(e.modelId, t.modelId(p));
            assertEquals(e.committed, t.committed(p));
            assertSame(e.chunk, t.chunk(p));
        }
    }
}
