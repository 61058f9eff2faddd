package dev.kvtier.journal.codec;

import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.util.KeyTable;
import java.util.ArrayList;
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

    private final KeyTable<Integer> numbers = new KeyTable<>();
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
    }

    /** Writes {@code key} as a reference, numbering it (and writing it whole) the first time. */
    void write(final PrefixKey key, final EventBuffer out) {
        final Integer known = numbers.get(key.hi(), key.lo());
        if (known != null) {
            out.putVarLong(known + 1L);
            return;
        }
        if (keys.size() >= KEYS_MAX) {
            throw new IllegalStateException("more than " + KEYS_MAX + " keys in one journal");
        }
        numbers.put(key.hi(), key.lo(), keys.size());
        keys.add(key);
        out.putVarLong(0);
        out.putLongLe(key.hi());
        out.putLongLe(key.lo());
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
