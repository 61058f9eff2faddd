package dev.kvtier.journal.codec;

import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.value.PrefixKey;
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
 * only; nothing iterates it. Before it, the writer tries the key numbered one after the key it wrote last: the keys
 * of a prompt are numbered in prefix order when they first appear, and most events name them in that order again (a
 * look-up's or a load's keys, commits in allocation order), so a run of such keys is checked against an array read
 * in order instead of looked up one by one in a table of random keys. The bytes are the same either way.
 */
public final class KeyDictionary {
    /** The most keys one journal's dictionary holds. */
    public static final int KEYS_MAX = 1 << 28;

    private final KeyTable<Integer> numbers = new KeyTable<>();
    private final List<PrefixKey> keys = new ArrayList<>();
    /** The writer's keys by number: key n's high half at {@code 2n}, its low half at {@code 2n + 1}. */
    private long[] bitsByNumber = new long[2 * 64];
    /**
     * The number of the key the writer wrote last, or -1 (after a truncate it may be past the keys left: its guess is
     * then past them too, and not tried).
     */
    private int last = -1;

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
    }

    /** Writes {@code key} as a reference, numbering it (and writing it whole) the first time. */
    void write(final PrefixKey key, final EventBuffer out) {
        final long hi = key.hi();
        final long lo = key.lo();
        final int next = last + 1;
        if (next < keys.size() && bitsByNumber[2 * next] == hi && bitsByNumber[2 * next + 1] == lo) {
            last = next;
            out.putVarLong(next + 1L);
            return;
        }
        final Integer known = numbers.get(hi, lo);
        if (known != null) {
            last = known;
            out.putVarLong(known + 1L);
            return;
        }
        final int n = keys.size();
        if (n >= KEYS_MAX) {
            throw new IllegalStateException("more than " + KEYS_MAX + " keys in one journal");
        }
        numbers.put(hi, lo, n);
        keys.add(key);
        if (2 * n + 2 > bitsByNumber.length) {
            bitsByNumber = Arrays.copyOf(bitsByNumber, 2 * bitsByNumber.length);
        }
        bitsByNumber[2 * n] = hi;
        bitsByNumber[2 * n + 1] = lo;
        last = n;
        out.putVarLong(0);
        out.putLongLe(hi);
        out.putLongLe(lo);
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
