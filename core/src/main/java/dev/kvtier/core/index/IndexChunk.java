package dev.kvtier.core.index;

import dev.kvtier.core.value.PrefixKey;

/**
 * One committed chunk as the index persists it: its key, model, allocation, slots, and one checksum per slot
 * ({@code known[i]} false when no accepted span covered slot {@code i} whole: such a slot is never served from L2).
 */
// The arrays are the persisted layout, one entry a slot; a chunk is never compared, hashed or printed as a value.
@SuppressWarnings("ArrayRecordComponent")
public record IndexChunk(PrefixKey key, int modelId, long allocationId, int startSlot, int slotCount, long[] sums,
                         boolean[] known) implements PersistedChunk {
    public IndexChunk {
        if (sums.length != slotCount || known.length != slotCount) {
            throw new IllegalArgumentException("one checksum per slot: " + slotCount + " slots, " + sums.length
                + " sums, " + known.length + " flags");
        }
    }

    int endSlot() {
        return startSlot + slotCount;
    }

    @Override
    public long sum(final int i) {
        return sums[i];
    }

    @Override
    public boolean known(final int i) {
        return known[i];
    }
}
