package dev.kvtier.core.l2;

import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.index.IndexChunk;

/** One live allocation in the ring: a contiguous run of slots owned by one key, claimed or committed. */
final class Chunk {
    final PrefixKey key;
    final int modelId;
    final long allocationId;
    final int startSlot;
    final int slotCount;
    final long[] sums;
    final boolean[] known;
    /** What spans of this allocation name: made once, as every field it holds is final. */
    private final AllocationRef ref;
    /** What {@link #persisted} gives, made at its first call (a chunk is logged once, checkpointed many times). */
    private IndexChunk persisted;
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
        this.sums = new long[slotCount];
        this.known = new boolean[slotCount];
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

    /**
     * The chunk as the index persists it, over this chunk's own checksum arrays (not copies): the index log encodes
     * it at once (a COMMIT record, a checkpoint) and keeps only the bytes, so it must not be kept. One object for the
     * chunk's life (every field it holds is final; the arrays it views are this chunk's).
     */
    IndexChunk persisted() {
        if (persisted == null) {
            persisted = new IndexChunk(key, modelId, allocationId, startSlot, slotCount, sums, known);
        }
        return persisted;
    }
}
