package dev.kvtier.harness.check;

import java.util.function.LongBinaryOperator;

/**
 * A map from a long key (a store's id) to a long tally, for the checkers' per-store sums and maxima that every
 * inserted entry updates: open addressing with linear probing over two long arrays and a flag array, so an update
 * boxes neither key nor value and allocates nothing (a {@code HashMap<Long, Long>.merge} boxes both and may make a
 * node). Deletion shifts the probe run back, so no tombstones pile up. It is never iterated: the order of its
 * positions cannot reach a result. Grows by doubling at half full. Not thread-safe.
 */
final class LongTally {
    private static final int MIN_POSITIONS = 16;
    /** Fibonacci hashing: consecutive ids land far apart. */
    private static final long SPREAD = 0x9E3779B97F4A7C15L;

    private long[] keys = new long[MIN_POSITIONS];
    private long[] values = new long[MIN_POSITIONS];
    private boolean[] used = new boolean[MIN_POSITIONS];
    private int size;

    int size() {
        return size;
    }

    /** The tally of {@code key}, or {@code absent} when it has none. */
    long get(final long key, final long absent) {
        final int i = position(key);
        return used[i] ? values[i] : absent;
    }

    /** Sets the tally of {@code key} to {@code value} if it has none, else to {@code op(tally, value)}. */
    void merge(final long key, final long value, final LongBinaryOperator op) {
        final int i = position(key);
        if (used[i]) {
            values[i] = op.applyAsLong(values[i], value);
            return;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
        if (2 * size > keys.length) {
            grow();
        }
    }

    /** Removes the tally of {@code key}; returns it, or {@code absent} when it had none. */
    long remove(final long key, final long absent) {
        int hole = position(key);
        if (!used[hole]) {
            return absent;
        }
        final long removed = values[hole];
        final int mask = keys.length - 1;
        // Backward shift: move up every later key of the run whose home does not lie (cyclically) in (hole, at].
        for (int at = (hole + 1) & mask; used[at]; at = (at + 1) & mask) {
            final int home = home(keys[at], mask);
            if (((at - home) & mask) >= ((at - hole) & mask)) {
                keys[hole] = keys[at];
                values[hole] = values[at];
                hole = at;
            }
        }
        used[hole] = false;
        size--;
        return removed;
    }

    /** The position holding {@code key}, or the free one where it would go. */
    private int position(final long key) {
        final int mask = keys.length - 1;
        int i = home(key, mask);
        while (used[i] && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static int home(final long key, final int mask) {
        return (int) ((key * SPREAD) >>> 32) & mask;
    }

    private void grow() {
        final long[] oldKeys = keys;
        final long[] oldValues = values;
        final boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldUsed[j]) {
                final int i = position(oldKeys[j]);
                used[i] = true;
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
