package dev.kvtier.harness.check;

import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.value.PrefixKey;

/**
 * What happened last to every key a run ever claimed, for {@link ProvenanceChecker}. Keys are never forgotten (a key
 * never claimed is a first sight), so the table holds every key of the run, in 16 bytes each: open addressing with
 * linear probing over one array of longs, a key's two halves side by side with its fate in the top three bits of the
 * first (so a key is known by 125 of its 128 bits: two keys that differ only there share a fate, which a run's hashed
 * keys never do), no entry objects, at most two thirds full. A claimed key and a committed one share a fate there
 * ({@code STORED}); the claims not yet committed are also in a small table of their own, so a commit costs a probe of
 * that table (which stays in cache) instead of one of the large one. Point look-ups only (a crash walks the tables,
 * and what it does to an entry does not depend on the order). Not thread-safe.
 */
final class KeyFates {
    /** Never claimed (not stored: an empty position holds 0). */
    static final int ABSENT = 0;
    /** Claimed by a writer, not committed. */
    static final int CLAIMED = 1;
    /** Committed: visible to lookups. */
    static final int COMMITTED = 2;
    /** Evicted from the L2 ring for space or at a wrap. */
    static final int EVICTED = 3;
    /** Dropped after a failed write, a checksum mismatch or a commit not made durable. */
    static final int FAULTED = 4;
    /** Claimed or committed when the core crashed (until the restarted core recovers it). */
    static final int CRASHED = 5;
    /** Its claim was released uncommitted. */
    static final int RELEASED = 6;
    /** Its allocation was skipped: larger than the whole ring. */
    static final int TOO_LARGE = 7;

    /** In the large table: claimed or committed (claimed when {@link #claims} holds it too). */
    private static final int STORED = CLAIMED;
    private static final int FATE_SHIFT = 61;
    private static final long HI_BITS = (1L << FATE_SHIFT) - 1;
    private static final int MIN_CAPACITY = 1 << 12;
    private static final Object CLAIM = new Object();

    /** Position i holds a key's high half and fate at 2i (fate 0: empty), its low half at 2i + 1. */
    private long[] table;
    private int mask;
    private int size;
    private final KeyTable<Object> claims = new KeyTable<>();

    /** An empty table that holds {@code expectedKeys} keys without growing. */
    KeyFates(final int expectedKeys) {
        if (expectedKeys < 0 || expectedKeys > 1 << 28) {
            throw new IllegalArgumentException("expectedKeys " + expectedKeys + " not in [0, 2^28]");
        }
        int capacity = MIN_CAPACITY;
        while (2 * capacity < 3 * expectedKeys) {
            capacity *= 2;
        }
        allocate(capacity);
    }

    /** The key's fate: {@link #ABSENT} when it was never claimed. */
    int fate(final PrefixKey key) {
        final int fate = (int) (table[position(key.hi(), key.lo())] >>> FATE_SHIFT);
        if (fate != STORED) {
            return fate;
        }
        return claims.containsKey(key.hi(), key.lo()) ? CLAIMED : COMMITTED;
    }

    /** Gives {@code key} the fate {@code fate} (not {@link #ABSENT}). */
    void set(final PrefixKey key, final int fate) {
        if (fate <= ABSENT || fate > TOO_LARGE) {
            throw new IllegalArgumentException("fate " + fate);
        }
        if (fate == CLAIMED) {
            claims.put(key.hi(), key.lo(), CLAIM);
            store(key, STORED);
        } else if (claims.remove(key.hi(), key.lo()) == null || fate != COMMITTED) {
            // A commit of a claim finds the key stored already; anything else is written down.
            store(key, fate == COMMITTED ? STORED : fate);
        }
    }

    private void store(final PrefixKey key, final int fate) {
        final int at = position(key.hi(), key.lo());
        if (table[at] == 0) {
            table[at + 1] = key.lo();
            size++;
        }
        table[at] = ((long) fate << FATE_SHIFT) | (key.hi() & HI_BITS);
        if (3 * size > 2 * (mask + 1)) {
            grow();
        }
    }

    /** The core crashed: every claimed or committed key is lost. */
    void crash() {
        for (int at = 0; at < table.length; at += 2) {
            if (table[at] >>> FATE_SHIFT == STORED) {
                table[at] = ((long) CRASHED << FATE_SHIFT) | (table[at] & HI_BITS);
            }
        }
        claims.clear();
    }

    /** Keys ever claimed. */
    int size() {
        return size;
    }

    private void grow() {
        final long[] old = table;
        allocate(2 * (mask + 1));
        for (int j = 0; j < old.length; j += 2) {
            if (old[j] != 0) {
                final int at = position(old[j] & HI_BITS, old[j + 1]);
                table[at] = old[j];
                table[at + 1] = old[j + 1];
            }
        }
    }

    private void allocate(final int capacity) {
        table = new long[2 * capacity];
        mask = capacity - 1;
    }

    /** Where (the index of its first long) key {@code (hi, lo)} is, or the empty position that ends its probe run. */
    private int position(final long hi, final long lo) {
        final long h = hi & HI_BITS;
        int i = KeyTable.mix(h, lo) & mask;
        while (table[2 * i] != 0 && ((table[2 * i] & HI_BITS) != h || table[2 * i + 1] != lo)) {
            i = (i + 1) & mask;
        }
        return 2 * i;
    }
}
