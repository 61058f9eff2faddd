package dev.kvtier.core.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A sorted map from a primitive {@code long} key (signed order, as {@code TreeMap<Long, V>} sorts) to a non-null
 * value: a list of blocks, each a sorted array of up to {@value #BLOCK} keys with their values beside them, and each
 * block's first key kept apart for the binary search. It answers what the core's L1 entry map and the checkers'
 * shadows of it ask a {@code TreeMap<Long, V>} (point look-ups, floor, lower, ceiling, higher, the values of a range
 * in key order) without a boxed key or a node per entry: a look-up is two binary searches over arrays, and an insert
 * or a removal moves at most one block's entries (a full block splits in two, or a new last block starts when the key
 * goes after every other, the usual case for offsets handed out in order; an emptied block goes). Not thread-safe.
 *
 * @param <V> what a key maps to
 */
public final class LongSortedMap<V> {
    static final int BLOCK = 64;

    private long[][] keys = new long[4][];
    private Object[][] values = new Object[4][];
    private int[] sizes = new int[4];
    private long[] firsts = new long[4];
    private int blockCount;
    private int size;

    /** Keys that map to a value. */
    public int size() {
        return size;
    }

    /** True when no key maps to a value. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** What {@code key} maps to, or null. */
    public V get(final long key) {
        final int b = floorBlock(key);
        if (b < 0) {
            return null;
        }
        final int i = Arrays.binarySearch(keys[b], 0, sizes[b], key);
        return i >= 0 ? value(b, i) : null;
    }

    /** The value of the greatest key at or below {@code key}, or null. */
    public V floorValue(final long key) {
        final int b = floorBlock(key);
        if (b < 0) {
            return null;
        }
        // The block's first key is at or below key, so the floor is in this block.
        return value(b, floorIndex(b, key));
    }

    /** The value of the greatest key strictly below {@code key}, or null. */
    public V lowerValue(final long key) {
        return key == Long.MIN_VALUE ? null : floorValue(key - 1);
    }

    /** The value of the least key, or null when the map is empty. */
    public V firstValue() {
        return blockCount == 0 ? null : value(0, 0);
    }

    /** The value of the least key at or above {@code key}, or null. */
    public V ceilingValue(final long key) {
        final long at = ceiling(key);
        return at < 0 ? null : value((int) (at >>> 32), (int) at);
    }

    /** The value of the least key strictly above {@code key}, or null. */
    public V higherValue(final long key) {
        return key == Long.MAX_VALUE ? null : ceilingValue(key + 1);
    }

    /** True when some key lies in {@code [from, to)}. */
    public boolean anyIn(final long from, final long to) {
        final long at = ceiling(from);
        return at >= 0 && keys[(int) (at >>> 32)][(int) at] < to;
    }

    /** Adds the values of the keys in {@code [from, to)} to {@code out}, in key order. */
    public void valuesIn(final long from, final long to, final List<? super V> out) {
        final long at = ceiling(from);
        if (at < 0) {
            return;
        }
        int i = (int) at;
        for (int b = (int) (at >>> 32); b < blockCount; b++, i = 0) {
            final long[] k = keys[b];
            for (; i < sizes[b]; i++) {
                if (k[i] >= to) {
                    return;
                }
                out.add(value(b, i));
            }
        }
    }

    /** Every value in key order: a copy (unmodifiable), so the map may change while the caller walks it. */
    public List<V> values() {
        final List<V> out = new ArrayList<>(size);
        for (int b = 0; b < blockCount; b++) {
            for (int i = 0; i < sizes[b]; i++) {
                out.add(value(b, i));
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** Maps {@code key} to {@code value} (not null); returns what it mapped to before, or null. */
    public V put(final long key, final V value) {
        return put(key, value, true);
    }

    /** Maps {@code key} to {@code value} (not null) unless it maps to a value; returns that value, or null. */
    public V putIfAbsent(final long key, final V value) {
        return put(key, value, false);
    }

    private V put(final long key, final V value, final boolean replace) {
        if (value == null) {
            throw new IllegalArgumentException("null value (remove the key instead)");
        }
        if (blockCount == 0) {
            insertBlock(0);
            return place(0, 0, key, value);
        }
        final int last = blockCount - 1;
        if (key > keys[last][sizes[last] - 1]) {
            // After every key (keys handed out in order, as a recency sequence is): no search. A full last block
            // gets a new one after it instead of a split, so keys handed out in order fill whole blocks.
            if (sizes[last] < BLOCK) {
                return place(last, sizes[last], key, value);
            }
            insertBlock(blockCount);
            return place(last + 1, 0, key, value);
        }
        final int b = Math.max(floorBlock(key), 0);
        final int found = Arrays.binarySearch(keys[b], 0, sizes[b], key);
        if (found >= 0) {
            final V before = value(b, found);
            if (replace) {
                values[b][found] = value;
            }
            return before;
        }
        final int i = -found - 1;
        if (sizes[b] < BLOCK) {
            return place(b, i, key, value);
        }
        split(b);
        return i <= BLOCK / 2 ? place(b, i, key, value) : place(b + 1, i - BLOCK / 2, key, value);
    }

    /** Removes {@code key}; returns what it mapped to, or null. */
    public V remove(final long key) {
        final int b = floorBlock(key);
        if (b < 0) {
            return null;
        }
        final int i = Arrays.binarySearch(keys[b], 0, sizes[b], key);
        if (i < 0) {
            return null;
        }
        final V before = value(b, i);
        final int after = sizes[b] - i - 1;
        System.arraycopy(keys[b], i + 1, keys[b], i, after);
        System.arraycopy(values[b], i + 1, values[b], i, after);
        sizes[b]--;
        values[b][sizes[b]] = null;
        size--;
        if (sizes[b] == 0) {
            removeBlock(b);
        } else {
            firsts[b] = keys[b][0];
        }
        return before;
    }

    @SuppressWarnings("unchecked") // only put() stores values, and it takes a V
    private V value(final int b, final int i) {
        return (V) values[b][i];
    }

    private V place(final int b, final int i, final long key, final V value) {
        final int after = sizes[b] - i;
        System.arraycopy(keys[b], i, keys[b], i + 1, after);
        System.arraycopy(values[b], i, values[b], i + 1, after);
        keys[b][i] = key;
        values[b][i] = value;
        sizes[b]++;
        firsts[b] = keys[b][0];
        size++;
        return null;
    }

    /** Moves the upper half of full block {@code b} into a new block after it. */
    private void split(final int b) {
        insertBlock(b + 1);
        final int half = BLOCK / 2;
        System.arraycopy(keys[b], half, keys[b + 1], 0, BLOCK - half);
        System.arraycopy(values[b], half, values[b + 1], 0, BLOCK - half);
        Arrays.fill(values[b], half, BLOCK, null);
        sizes[b] = half;
        sizes[b + 1] = BLOCK - half;
        firsts[b + 1] = keys[b + 1][0];
    }

    private void insertBlock(final int b) {
        if (blockCount == sizes.length) {
            final int n = 2 * blockCount;
            keys = Arrays.copyOf(keys, n);
            values = Arrays.copyOf(values, n);
            sizes = Arrays.copyOf(sizes, n);
            firsts = Arrays.copyOf(firsts, n);
        }
        final int after = blockCount - b;
        System.arraycopy(keys, b, keys, b + 1, after);
        System.arraycopy(values, b, values, b + 1, after);
        System.arraycopy(sizes, b, sizes, b + 1, after);
        System.arraycopy(firsts, b, firsts, b + 1, after);
        keys[b] = new long[BLOCK];
        values[b] = new Object[BLOCK];
        sizes[b] = 0;
        blockCount++;
    }

    private void removeBlock(final int b) {
        final int after = blockCount - b - 1;
        System.arraycopy(keys, b + 1, keys, b, after);
        System.arraycopy(values, b + 1, values, b, after);
        System.arraycopy(sizes, b + 1, sizes, b, after);
        System.arraycopy(firsts, b + 1, firsts, b, after);
        blockCount--;
        keys[blockCount] = null;
        values[blockCount] = null;
    }

    /** The last block whose first key is at or below {@code key}, or -1 (blocks' first keys rise strictly). */
    private int floorBlock(final long key) {
        final int b = Arrays.binarySearch(firsts, 0, blockCount, key);
        return b >= 0 ? b : -b - 2;
    }

    /** In block {@code b}, whose first key is at or below {@code key}: the index of the greatest key at or below it. */
    private int floorIndex(final int b, final long key) {
        final int i = Arrays.binarySearch(keys[b], 0, sizes[b], key);
        return i >= 0 ? i : -i - 2;
    }

    /** The least key at or above {@code key} as {@code block << 32 | index}, or -1. */
    private long ceiling(final long key) {
        final int b = floorBlock(key);
        if (b < 0) {
            return blockCount == 0 ? -1 : 0;
        }
        final int found = Arrays.binarySearch(keys[b], 0, sizes[b], key);
        final int i = found >= 0 ? found : -found - 1;
        if (i < sizes[b]) {
            return (long) b << 32 | i;
        }
        return b + 1 < blockCount ? (long) (b + 1) << 32 : -1;
    }
}
