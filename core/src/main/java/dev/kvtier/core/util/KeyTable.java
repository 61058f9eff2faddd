package dev.kvtier.core.util;

import java.util.function.Consumer;

/**
 * A map from a 128-bit key, given as its two longs, to a value, for point look-ups only: open addressing with linear
 * probing over two parallel arrays, the keys' two halves side by side in one (a probe touches two cache lines, not
 * three) and the values in the other (no entry objects, no boxing, no key objects), at most three quarters full, and
 * removal by shifting back the entries after the removed one (no tombstones, so look-ups never slow down as keys come
 * and go).
 * Only {@link #forEachValue} iterates it, in table order (which follows a fixed hash of the keys, so it is the same in
 * every JVM but means nothing): a caller that needs an order sorts by something of its own first, so hash order never
 * leaks into a run. Used by the core's L2 directory for its key map and,
 * as a plain container holding none of the core's rules, by the directory checker's model of it; not thread-safe.
 *
 * @param <V> what a key maps to
 */
public final class KeyTable<V> {
    private static final int MIN_CAPACITY = 16;
    /**
     * Most keys {@link #forAtMost} makes room for at once (a table of 2^18 positions: 4 MiB of keys, 1 MiB of
     * references, at most three quarters full); a table bounded by more keys grows past it by doubling, so a bound in
     * the millions costs nothing until the keys come.
     */
    public static final int PRESIZED_KEYS_MAX = 1 << 17;

    /** Key i's halves at 2i (hi) and 2i + 1 (lo). */
    private long[] keys;
    private Object[] values;
    private int mask;
    private int size;

    /** An empty table. */
    public KeyTable() {
        allocate(MIN_CAPACITY);
    }

    /** An empty table that holds {@code expectedKeys} keys without growing. */
    public KeyTable(final int expectedKeys) {
        if (expectedKeys < 0 || expectedKeys > 1 << 28) {
            throw new IllegalArgumentException("expectedKeys " + expectedKeys + " not in [0, 2^28]");
        }
        allocate(capacityFor(expectedKeys));
    }

    /**
     * The fewest positions, a power of two of at least {@code MIN_CAPACITY}, that hold {@code keys} keys at most three
     * quarters full (a half-full table of a whole trace's 1.4 million-slot ring was a third full, 84 MiB where 42 do).
     */
    public static int capacityFor(final int keys) {
        int capacity = MIN_CAPACITY;
        while (4L * keys > 3L * capacity) {
            capacity *= 2;
        }
        return capacity;
    }

    /**
     * An empty table for a map that never holds more than {@code maxKeys} keys (a ring's slots bound its chunks): sized
     * at once for all of them, up to {@link #PRESIZED_KEYS_MAX}, so it does not grow (a table grown by doubling leaves
     * as much garbage as it finally holds: 5 MiB a table for a 100,000-slot ring).
     */
    public static <V> KeyTable<V> forAtMost(final int maxKeys) {
        if (maxKeys < 0) {
            throw new IllegalArgumentException("maxKeys " + maxKeys + " is negative");
        }
        return new KeyTable<>(Math.min(maxKeys, PRESIZED_KEYS_MAX));
    }

    /** Keys that map to a value. */
    public int size() {
        return size;
    }

    /** What key {@code (hi, lo)} maps to, or null. */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    public V get(final long hi, final long lo) {
        return (V) values[position(hi, lo)];
    }

    /** True when key {@code (hi, lo)} maps to a value. */
    public boolean containsKey(final long hi, final long lo) {
        return get(hi, lo) != null;
    }

    /** Maps key {@code (hi, lo)} to {@code value} (not null); returns what it mapped to before, or null. */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    public V put(final long hi, final long lo, final V value) {
        if (value == null) {
            throw new IllegalArgumentException("null value (remove the key instead)");
        }
        final int i = position(hi, lo);
        if (values[i] != null) {
            final V before = (V) values[i];
            values[i] = value;
            return before;
        }
        keys[2 * i] = hi;
        keys[2 * i + 1] = lo;
        values[i] = value;
        size++;
        if (4L * size > 3L * values.length) {
            grow();
        }
        return null;
    }

    /** Removes key {@code (hi, lo)}; returns what it mapped to, or null. */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    public V remove(final long hi, final long lo) {
        final int i = position(hi, lo);
        final Object value = values[i];
        if (value != null) {
            closeGap(i);
            size--;
        }
        return (V) value;
    }

    /**
     * Gives every value to {@code action} in table order (see the class comment: sort before relying on an order); the
     * table must not change meanwhile.
     */
    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    public void forEachValue(final Consumer<? super V> action) {
        for (final Object value : values) {
            if (value != null) {
                action.accept((V) value);
            }
        }
    }

    /** Removes every key (the table shrinks back to its initial size). */
    public void clear() {
        allocate(MIN_CAPACITY);
        size = 0;
    }

    /**
     * Empties position {@code gap} and moves back every entry after it in its probe run that would otherwise be cut
     * off from its home position (backward-shift deletion).
     */
    private void closeGap(final int gap) {
        int free = gap;
        int i = (gap + 1) & mask;
        while (values[i] != null) {
            final int home = index(keys[2 * i], keys[2 * i + 1]);
            // The entry at i may move to free when its home is not in (free, i] on the ring.
            if (((i - home) & mask) >= ((i - free) & mask)) {
                keys[2 * free] = keys[2 * i];
                keys[2 * free + 1] = keys[2 * i + 1];
                values[free] = values[i];
                free = i;
            }
            i = (i + 1) & mask;
        }
        values[free] = null;
    }

    private void grow() {
        final long[] oldKeys = keys;
        final Object[] oldValues = values;
        allocate(oldValues.length * 2);
        for (int j = 0; j < oldValues.length; j++) {
            if (oldValues[j] != null) {
                int i = index(oldKeys[2 * j], oldKeys[2 * j + 1]);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[2 * i] = oldKeys[2 * j];
                keys[2 * i + 1] = oldKeys[2 * j + 1];
                values[i] = oldValues[j];
            }
        }
    }

    private void allocate(final int capacity) {
        keys = new long[2 * capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    /** Where key {@code (hi, lo)} is, or the empty position that ends its probe run (linear probing). */
    private int position(final long hi, final long lo) {
        int i = index(hi, lo);
        while (values[i] != null && (keys[2 * i] != hi || keys[2 * i + 1] != lo)) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** The home position of a key. */
    private int index(final long hi, final long lo) {
        return mix(hi, lo) & mask;
    }

    /**
     * A key's 128 bits mixed into an int whose low bits serve as a home position in a table of a power of two
     * positions (a key's bits may be anything, not only a hash's); fixed, so table order is the same in every JVM.
     */
    public static int mix(final long hi, final long lo) {
        long h = hi * 0x9E3779B97F4A7C15L + lo;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return (int) h;
    }
}
