package dev.kvtier.journal.codec;

import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.util.KeyTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The prefix keys of one journal, each stored once (journal format 4): the first time a key appears it is written in
 * full and gets the next number (0, 1, 2, ...); after that it is written as that number. One per journal writer or
 * reader, fed the events in journal order; the canonical encoding (digests, and the events of journals of format 2
 * and 3) never uses one.
 *
 * <pre>
 *   key = ref:varint [hi:i64le lo:i64le]     ref 0: a new key, its 16 bytes follow, numbered size();
 *                                            ref n (n >= 1): the key numbered n - 1
 * </pre>
 *
 * The writer's map (a {@link KeyTable} over the key's two longs: no hashing of key objects) is used for point look-ups
 * only; nothing iterates it.
 */
public final class KeyDictionary {
    /** The most keys one journal's dictionary holds. */
    public static final int KEYS_MAX = 1 << 28;

    /** Places in the cache of recent keys (a power of two). */
    private static final int RECENT = 512;

    private final KeyTable<Integer> numbers = new KeyTable<>();
    /**
     * The writer's recently written keys, direct-mapped by a hash of the key: key i's halves at 2i and 2i + 1, its
     * number plus one in {@link #recentNumbers} (0: an empty place). An event names keys its recent events named, and
     * this small cache finds them without touching the whole dictionary (whose table misses the CPU's caches).
     */
    private final long[] recentKeys = new long[2 * RECENT];
    private final int[] recentNumbers = new int[RECENT];
    private final List<PrefixKey> keys = new ArrayList<>();

    /** Keys numbered so far. */
    public int size() {
        return keys.size();
    }

    /** Forgets the keys numbered from {@code count} on (an event that was encoded but not written). */
    public void truncate(final int count) {
        while (keys.size() > count) {
            final PrefixKey key = keys.removeLast();
            numbers.remove(key.hi(), key.lo());
        }
        Arrays.fill(recentNumbers, 0);
    }

    /** Writes {@code key} as a reference, numbering it (and writing it whole) the first time. */
    void write(final PrefixKey key, final EventBuffer out) {
        final long hi = key.hi();
        final long lo = key.lo();
        final int place = recentPlace(hi, lo);
        if (recentNumbers[place] != 0 && recentKeys[2 * place] == hi && recentKeys[2 * place + 1] == lo) {
            out.putVarLong(recentNumbers[place]);
            return;
        }
        final Integer known = numbers.get(hi, lo);
        if (known != null) {
            remember(place, hi, lo, known);
            out.putVarLong(known + 1L);
            return;
        }
        if (keys.size() >= KEYS_MAX) {
            throw new IllegalStateException("more than " + KEYS_MAX + " keys in one journal");
        }
        remember(place, hi, lo, keys.size());
        numbers.put(hi, lo, keys.size());
        keys.add(key);
        out.putVarLong(0);
        out.putLongLe(key.hi());
        out.putLongLe(key.lo());
    }

    private void remember(final int place, final long hi, final long lo, final int number) {
        recentKeys[2 * place] = hi;
        recentKeys[2 * place + 1] = lo;
        recentNumbers[place] = number + 1;
    }

    private static int recentPlace(final long hi, final long lo) {
        final long h = (hi ^ Long.rotateLeft(lo, 29)) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (RECENT - 1);
    }

    /** Reads a key reference (numbering a new key). */
    PrefixKey read(final EventCursor c) throws EventFormatException {
        final long ref = c.varLong();
        if (ref == 0) {
            if (keys.size() >= KEYS_MAX) {
                throw new EventFormatException("more than " + KEYS_MAX + " keys in one journal");
            }
            final PrefixKey key = new PrefixKey(c.longLe(), c.longLe());
            keys.add(key);
            return key;
        }
        if (ref > keys.size()) {
            throw new EventFormatException("key reference " + ref + " with " + keys.size() + " keys known");
        }
        return keys.get((int) (ref - 1));
    }
}
