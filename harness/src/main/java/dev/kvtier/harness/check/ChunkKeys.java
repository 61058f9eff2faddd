package dev.kvtier.harness.check;

import dev.kvtier.core.util.KeyTable;

/**
 * The directory checker's model of the key map: each live key with its allocation id, model and whether it is
 * committed, side by side in one {@code long[]} (four longs a position: key high, key low, allocation id, state), so
 * that what most events ask of a key (is it live, of which allocation, committed, of which model) costs one place in
 * one array; the checker's chunk for the key (its slots and its place in the age order) sits at the same position of
 * a second array, read only by the events that change it. Open addressing with linear probing, at most three quarters
 * full ({@link KeyTable#capacityFor}), backward-shift removal (no tombstones), the home position from
 * {@link KeyTable#mix}. Positions are valid until the next insert or removal; not thread-safe.
 *
 * @param <C> the checker's chunk
 */
final class ChunkKeys<C> {
    private static final int STRIDE = 4;
    private static final int MIN_CAPACITY = 16;
    /** Bit 0 of the state: the position holds a key. */
    private static final long LIVE = 1;
    /** Bit 1 of the state: the key's allocation is committed. The model id is the state's upper 32 bits. */
    private static final long COMMITTED = 2;

    private long[] places;
    private Object[] chunks;
    private int mask;
    private int size;

    /** An empty table that holds {@code expectedKeys} keys without growing (more make it grow by doubling). */
    ChunkKeys(final int expectedKeys) {
        if (expectedKeys < 0 || expectedKeys > 1 << 26) {
            throw new IllegalArgumentException("expectedKeys " + expectedKeys + " not in [0, 2^26]");
        }
        allocate(Math.max(MIN_CAPACITY, KeyTable.capacityFor(expectedKeys)));
    }

    /** Keys held. */
    int size() {
        return size;
    }

    /** The position of key {@code (hi, lo)}, or -1 when it is not live. */
    int find(final long hi, final long lo) {
        int i = KeyTable.mix(hi, lo) & mask;
        while (true) {
            final int at = STRIDE * i;
            if (places[at + 3] == 0) {
                return -1;
            }
            if (places[at] == hi && places[at + 1] == lo) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /** The allocation id of the key at {@code position}. */
    long allocationId(final int position) {
        return places[STRIDE * position + 2];
    }

    /** True when the allocation of the key at {@code position} is committed. */
    boolean committed(final int position) {
        return (places[STRIDE * position + 3] & COMMITTED) != 0;
    }

    /** The model of the key at {@code position}. */
    int modelId(final int position) {
        return (int) (places[STRIDE * position + 3] >>> 32);
    }

    /** The chunk of the key at {@code position}. */
    @SuppressWarnings("unchecked") // only insert() stores chunks, and it takes a C
    C chunk(final int position) {
        return (C) chunks[position];
    }

    /** Marks the allocation of the key at {@code position} committed. */
    void commit(final int position) {
        places[STRIDE * position + 3] |= COMMITTED;
    }

    /** Adds key {@code (hi, lo)}, uncommitted, which must not be live; returns its position. */
    int insert(final long hi, final long lo, final long allocationId, final int modelId, final C chunk) {
        if (chunk == null) {
            throw new IllegalArgumentException("null chunk");
        }
        if (4L * (size + 1) > 3L * chunks.length) {
            grow();
        }
        int i = KeyTable.mix(hi, lo) & mask;
        while (places[STRIDE * i + 3] != 0) {
            if (places[STRIDE * i] == hi && places[STRIDE * i + 1] == lo) {
                throw new IllegalStateException("key (" + hi + ", " + lo + ") is already live");
            }
            i = (i + 1) & mask;
        }
        put(i, hi, lo, allocationId, LIVE | (long) modelId << 32, chunk);
        size++;
        return i;
    }

    /** Removes the key at {@code position}; other positions may move. */
    void remove(final int position) {
        int free = position;
        int i = (position + 1) & mask;
        while (places[STRIDE * i + 3] != 0) {
            final int home = KeyTable.mix(places[STRIDE * i], places[STRIDE * i + 1]) & mask;
            // The entry at i may move to free when its home is not in (free, i] on the ring.
            if (((i - home) & mask) >= ((i - free) & mask)) {
                System.arraycopy(places, STRIDE * i, places, STRIDE * free, STRIDE);
                chunks[free] = chunks[i];
                free = i;
            }
            i = (i + 1) & mask;
        }
        places[STRIDE * free + 3] = 0;
        chunks[free] = null;
        size--;
    }

    private void put(final int i, final long hi, final long lo, final long allocationId, final long state,
                     final Object chunk) {
        places[STRIDE * i] = hi;
        places[STRIDE * i + 1] = lo;
        places[STRIDE * i + 2] = allocationId;
        places[STRIDE * i + 3] = state;
        chunks[i] = chunk;
    }

    private void grow() {
        final long[] oldPlaces = places;
        final Object[] oldChunks = chunks;
        allocate(oldChunks.length * 2);
        for (int j = 0; j < oldChunks.length; j++) {
            if (oldPlaces[STRIDE * j + 3] != 0) {
                int i = KeyTable.mix(oldPlaces[STRIDE * j], oldPlaces[STRIDE * j + 1]) & mask;
                while (places[STRIDE * i + 3] != 0) {
                    i = (i + 1) & mask;
                }
                put(i, oldPlaces[STRIDE * j], oldPlaces[STRIDE * j + 1], oldPlaces[STRIDE * j + 2],
                    oldPlaces[STRIDE * j + 3], oldChunks[j]);
            }
        }
    }

    private void allocate(final int capacity) {
        places = new long[STRIDE * capacity];
        chunks = new Object[capacity];
        mask = capacity - 1;
    }
}
