package dev.kvtier.core.l2;

import dev.kvtier.core.index.PersistedChunk;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;

/**
 * One live allocation in the ring: a contiguous run of slots owned by one key, claimed or committed. It is also what
 * the index log encodes for it ({@link PersistedChunk}): a COMMIT record and every checkpoint read it at once, so no
 * other object is kept a chunk for the log.
 */
final class Chunk implements PersistedChunk {
    final PrefixKey key;
    final int modelId;
    final long allocationId;
    final int startSlot;
    final int slotCount;
    /**
     * Slot i's checksum at i, then the slots' known flags as bits from {@code slotCount} on (slot i's at bit
     * {@code i % 64} of word {@code slotCount + i / 64}): one array a chunk, not a checksum array and a flag array.
     */
    private final long[] words;
    /** What spans of this allocation name: made once, as every field it holds is final. */
    private final AllocationRef ref;
    boolean committed;
    /** Its COMMIT record is in the index log (so its removal is logged too). */
    boolean logged;
    int leases;
    /** The next older and newer live chunk in the ring's allocation order (null at either end, or when not live). */
    Chunk older;
    Chunk newer;

    Chunk(final PrefixKey key, final int modelId, final long allocationId, final int startSlot, final int slotCount) {
        this.key = key;
        this.modelId = modelId;
        this.allocationId = allocationId;
        this.startSlot = startSlot;
        this.slotCount = slotCount;
        this.words = new long[slotCount + (slotCount + Long.SIZE - 1) / Long.SIZE];
        this.ref = new AllocationRef(key, allocationId, startSlot, slotCount);
    }

    int endSlot() {
        return startSlot + slotCount;
    }

    boolean overlaps(final int from, final int count) {
        return startSlot < from + count && from < endSlot();
    }

    AllocationRef ref() {
        return ref;
    }

    boolean matches(final AllocationRef other) {
        return other.allocationId() == allocationId && other.startSlot() == startSlot
            && other.slotCount() == slotCount && other.key().equals(key);
    }

    /** Slot {@code i} of the chunk holds bytes whose checksum is {@code sum}. */
    void record(final int i, final long sum) {
        words[checkSlot(i)] = sum;
        words[slotCount + (i >>> 6)] |= 1L << i;
    }

    /** Slot {@code i}'s content is no longer known (its checksum stays, unused, as in the persisted form). */
    void forget(final int i) {
        words[slotCount + (checkSlot(i) >>> 6)] &= ~(1L << i);
    }

    @Override
    public PrefixKey key() {
        return key;
    }

    @Override
    public int modelId() {
        return modelId;
    }

    @Override
    public long allocationId() {
        return allocationId;
    }

    @Override
    public int startSlot() {
        return startSlot;
    }

    @Override
    public int slotCount() {
        return slotCount;
    }

    @Override
    public long sum(final int i) {
        return words[checkSlot(i)];
    }

    @Override
    public boolean known(final int i) {
        return (words[slotCount + (checkSlot(i) >>> 6)] & 1L << i) != 0;
    }

    private int checkSlot(final int i) {
        if (i < 0 || i >= slotCount) {
            throw new IndexOutOfBoundsException("slot " + i + " of a chunk of " + slotCount);
        }
        return i;
    }
}
