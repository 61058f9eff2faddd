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
 * The writer keeps each key once, by number, in an array of longs, and finds a key's number through a table of
 * numbers (open addressing with linear probing over an {@code int[]}, at most half full, positions from
 * {@link KeyTable#mix} of the key's two halves): four bytes a position, no boxed numbers and no second copy of the
 * keys, so a key costs the writer 24 to 48 bytes (a {@link KeyTable} of the keys to boxed numbers, beside the array,
 * cost about three times that), and growing leaves that much less garbage: the writer's thread allocates 7.1 MB
 * instead of 18.4 over {@code run pr90-evict --seed 1}. Before the table, the writer tries the
 * key numbered one after the key it wrote last: the keys of a prompt are numbered in prefix order when they first
 * appear, and most events name them in that order again (a look-up's or a load's keys, commits in allocation order),
 * so a run of such keys is checked against an array read in order instead of looked up one by one in a table of
 * random keys. The bytes are the same either way. The reader keeps its keys as objects, to hand them out.
 */
public final class KeyDictionary {
    /** The most keys one journal's dictionary holds. */
    public static final int KEYS_MAX = 1 << 28;
    private static final int MIN_SLOTS = 64;

    /** The reader's keys by number. */
    private final List<PrefixKey> keys = new ArrayList<>();
    /** The writer's keys by number: key n's high half at {@code 2n}, its low half at {@code 2n + 1}. */
    private long[] bitsByNumber = new long[2 * MIN_SLOTS];
    /** The writer's table: a key's number plus one at its position (or after it, probing), 0 where there is none. */
    private int[] slots = new int[MIN_SLOTS];
    /** Keys numbered so far (by the writer, or read). */
    private int count;
    /**
     * The number of the key the writer wrote last, or -1 (after a truncate it may be past the keys left: its guess is
     * then past them too, and not tried).
     */
    private int last = -1;

    /** Keys numbered so far. */
    public int size() {
        return count;
    }

    /** Forgets the keys numbered from {@code count} on (an event that was encoded but not written). */
    public void truncate(final int newCount) {
        if (newCount < 0) {
            throw new IllegalArgumentException("truncate to " + newCount + " keys");
        }
        if (newCount >= count) {
            return;
        }
        count = newCount;
        while (keys.size() > newCount) {
            keys.removeLast();
        }
        Arrays.fill(slots, 0);
        for (int n = 0; n < count; n++) {
            slots[free(bitsByNumber[2 * n], bitsByNumber[2 * n + 1], slots)] = n + 1;
        }
    }

    /** Writes {@code key} as a reference, numbering it (and writing it whole) the first time. */
    void write(final PrefixKey key, final EventBuffer out) {
        final long hi = key.hi();
        final long lo = key.lo();
        final int next = last + 1;
        if (next < count && bitsByNumber[2 * next] == hi && bitsByNumber[2 * next + 1] == lo) {
            last = next;
            out.putVarLong(next + 1L);
            return;
        }
        final int mask = slots.length - 1;
        int position = KeyTable.mix(hi, lo) & mask;
        for (int ref = slots[position]; ref != 0; ref = slots[position]) {
            if (bitsByNumber[2 * ref - 2] == hi && bitsByNumber[2 * ref - 1] == lo) {
                last = ref - 1;
                out.putVarLong(ref);
                return;
            }
            position = (position + 1) & mask;
        }
        final int n = count;
        if (n >= KEYS_MAX) {
            throw new IllegalStateException("more than " + KEYS_MAX + " keys in one journal");
        }
        if (2 * n + 2 > bitsByNumber.length) {
            bitsByNumber = Arrays.copyOf(bitsByNumber, 2 * bitsByNumber.length);
        }
        bitsByNumber[2 * n] = hi;
        bitsByNumber[2 * n + 1] = lo;
        slots[position] = n + 1;
        count = n + 1;
        if (2 * count > slots.length) {
            grow();
        }
        last = n;
        out.putVarLong(0);
        out.putLongLe(hi);
        out.putLongLe(lo);
    }

    /** Doubles the writer's table and places every number again. */
    private void grow() {
        final int[] bigger = new int[2 * slots.length];
        for (int n = 0; n < count; n++) {
            bigger[free(bitsByNumber[2 * n], bitsByNumber[2 * n + 1], bigger)] = n + 1;
        }
        slots = bigger;
    }

    /** The first free position of {@code table} from the home of the key {@code (hi, lo)}, which it does not hold. */
    private static int free(final long hi, final long lo, final int[] table) {
        final int mask = table.length - 1;
        int position = KeyTable.mix(hi, lo) & mask;
        while (table[position] != 0) {
            position = (position + 1) & mask;
        }
        return position;
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
            count = keys.size();
            return key;
        }
        if (ref > keys.size()) {
            throw new EventFormatException("key reference " + ref + " with " + keys.size() + " keys known");
        }
        return keys.get((int) (ref - 1));
    }
}
