package dev.kvtier.core.l2;

import dev.kvtier.core.geometry.PrefixKey;

/** One live allocation in the ring: a contiguous run of slots owned by one key, claimed or committed. */
final class Chunk {
    final PrefixKey key;
    final int modelId;
    final long allocationId;
    final int startSlot;
    final int slotCount;
    boolean committed;
    int leases;

    Chunk(final PrefixKey key, final int modelId, final long allocationId, final int startSlot, final int slotCount) {
        this.key = key;
        this.modelId = modelId;
        this.allocationId = allocationId;
        this.startSlot = startSlot;
        this.slotCount = slotCount;
    }

    int endSlot() {
        return startSlot + slotCount;
    }

    boolean overlaps(final int from, final int count) {
        return startSlot < from + count && from < endSlot();
    }

    AllocationRef ref() {
        return new AllocationRef(key, allocationId, startSlot, slotCount);
    }

    boolean matches(final AllocationRef ref) {
        return ref.allocationId() == allocationId && ref.startSlot() == startSlot && ref.slotCount() == slotCount
            && ref.key().equals(key);
    }
}
