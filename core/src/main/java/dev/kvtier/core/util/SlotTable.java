package dev.kvtier.core.util;

/**
 * A table from slot number to what starts at that slot, for a ring of {@code slotCount} slots: pages of 4096 entries
 * made on first use, so memory follows the slots in use (a ring of millions of slots costs nothing until allocations
 * reach it), and no key is boxed. The searches scan only the range they are given and step over a page that was never
 * made, so a caller that bounds its range by the largest run it holds pays for what its event touches, not for the
 * number of live entries. Used by the core's slot ring and, as a plain container holding none of the core's rules, by
 * the directory checker's model of it; not thread-safe.
 *
 * @param <T> what a slot holds
 */
public final class SlotTable<T> {
    private static final int PAGE_BITS = 12;
    private static final int PAGE_SLOTS = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_SLOTS - 1;

    private final int slotCount;
    private final Object[][] pages;
    private int size;

    public SlotTable(final int slotCount) {
        if (slotCount <= 0) {
            throw new IllegalArgumentException("a slot table needs at least one slot, got " + slotCount);
        }
        this.slotCount = slotCount;
        this.pages = new Object[(int) ((slotCount + (long) PAGE_MASK) >>> PAGE_BITS)][];
    }

    public int slotCount() {
        return slotCount;
    }

    /** Slots that hold a value. */
    public int size() {
        return size;
    }

    /** What slot {@code slot} holds, or null. */
    @SuppressWarnings("unchecked") // only put() stores into the pages, and it takes a T
    public T get(final int slot) {
        checkSlot(slot);
        final Object[] page = pages[slot >>> PAGE_BITS];
        return page == null ? null : (T) page[slot & PAGE_MASK];
    }

    /** Stores {@code value} (not null) at {@code slot}; returns what the slot held before, or null. */
    public T put(final int slot, final T value) {
        if (value == null) {
            throw new IllegalArgumentException("null value at slot " + slot + " (remove it instead)");
        }
        checkSlot(slot);
        Object[] page = pages[slot >>> PAGE_BITS];
        if (page == null) {
            page = new Object[PAGE_SLOTS];
            pages[slot >>> PAGE_BITS] = page;
        }
        final T before = get(slot);
        page[slot & PAGE_MASK] = value;
        if (before == null) {
            size++;
        }
        return before;
    }

    /** Empties {@code slot}; returns what it held, or null. */
    public T remove(final int slot) {
        final T before = get(slot);
        if (before != null) {
            pages[slot >>> PAGE_BITS][slot & PAGE_MASK] = null;
            size--;
        }
        assert size >= 0 : "slot table size " + size;
        return before;
    }

    /**
     * The highest slot in {@code [low, high]} (clamped to the table) that holds a value, or -1 when none does.
     * Costs at most the range's length.
     */
    public int highestIn(final int low, final int high) {
        final int from = Math.min(high, slotCount - 1);
        final int to = Math.max(low, 0);
        int slot = from;
        while (slot >= to) {
            final Object[] page = pages[slot >>> PAGE_BITS];
            if (page == null) {
                slot = (slot & ~PAGE_MASK) - 1;
                continue;
            }
            if (page[slot & PAGE_MASK] != null) {
                return slot;
            }
            slot--;
        }
        return -1;
    }

    /**
     * The lowest slot in {@code [low, high]} (clamped to the table) that holds a value, or -1 when none does. Costs
     * at most the range's length.
     */
    public int lowestIn(final int low, final int high) {
        final int from = Math.max(low, 0);
        final int to = Math.min(high, slotCount - 1);
        long slot = from;
        while (slot <= to) {
            final Object[] page = pages[(int) (slot >>> PAGE_BITS)];
            if (page == null) {
                slot = (slot | PAGE_MASK) + 1;
                continue;
            }
            if (page[(int) (slot & PAGE_MASK)] != null) {
                return (int) slot;
            }
            slot++;
        }
        return -1;
    }

    private void checkSlot(final int slot) {
        if (slot < 0 || slot >= slotCount) {
            throw new IndexOutOfBoundsException("slot " + slot + " of a table of " + slotCount);
        }
    }
}
