package dev.kvtier.harness.check;

import java.util.HashMap;
import java.util.Map;

/**
 * A map from an allocation id to a value, for ids that come mostly in ascending order and leave mostly in the same
 * order (a ring's allocations): a direct-mapped ring of positions indexed by the id's low bits, so consecutive ids sit
 * side by side and the newest and oldest ids, the ones a run touches, stay in a few cache lines each. An id whose
 * position holds another id goes to an overflow map (ids far apart, or more live ids than positions); an id is in one
 * place only. A hashed table spreads consecutive ids over the whole table: a cache miss an access. Not thread-safe.
 *
 * @param <V> what an id maps to
 */
final class IdRing<V> {
    private static final int MIN_POSITIONS = 16;
    /**
     * Most positions: 2^22 (48 MiB); beyond it, ids overflow. A ring of more than 2^20 slots (a whole trace's) needs
     * more than 2^20: an overflowing id costs a boxed key and a map node (about 64 B), so a 1.4 M-slot ring's 400,000
     * overflowing ids took more heap than positions for all of them.
     */
    private static final int MAX_POSITIONS = 1 << 22;

    private final long[] ids;
    private final Object[] values;
    private final int mask;
    private final Map<Long, V> overflow = new HashMap<>();
    private int size;

    /**
     * An empty ring with room for {@code expectedIds} consecutive ids (at least a quarter more positions, a power
     * of two: room for the gaps that released and skipped allocations leave between live ids).
     */
    IdRing(final int expectedIds) {
        if (expectedIds < 0) {
            throw new IllegalArgumentException("expectedIds " + expectedIds + " is negative");
        }
        final long wanted = Math.max(MIN_POSITIONS, expectedIds + expectedIds / 4L);
        final int positions = (int) Math.min(MAX_POSITIONS, Long.highestOneBit(wanted - 1) << 1);
        ids = new long[positions];
        values = new Object[positions];
        mask = positions - 1;
    }

    /** What {@code id} maps to, or null. */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    V get(final long id) {
        final int i = (int) id & mask;
        if (values[i] != null && ids[i] == id) {
            return (V) values[i];
        }
        return overflow.isEmpty() ? null : overflow.get(id);
    }

    /** Maps {@code id} to {@code value} (not null), replacing what it mapped to. */
    void put(final long id, final V value) {
        if (value == null) {
            throw new IllegalArgumentException("null value for id " + id);
        }
        final int i = (int) id & mask;
        if (values[i] != null && ids[i] == id) {
            values[i] = value;
        } else if (!overflow.isEmpty() && overflow.containsKey(id)) {
            overflow.put(id, value);
        } else if (values[i] == null) {
            ids[i] = id;
            values[i] = value;
            size++;
        } else {
            overflow.put(id, value);
            size++;
        }
    }

    /** Removes {@code id}; returns what it mapped to, or null. */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    V remove(final long id) {
        final int i = (int) id & mask;
        if (values[i] != null && ids[i] == id) {
            final V value = (V) values[i];
            values[i] = null;
            size--;
            return value;
        }
        final V value = overflow.isEmpty() ? null : overflow.remove(id);
        if (value != null) {
            size--;
        }
        return value;
    }

    /** Ids that map to a value. */
    int size() {
        return size;
    }

    /** Ids that did not fit their position (for tests). */
    int overflowing() {
        return overflow.size();
    }
}
