package dev.kvtier.core.value;

import java.util.Objects;

/**
 * What a store or load span names: the allocation it belongs to. {@code allocationId} is unique for the life of the
 * core, so a span of an allocation that was evicted and whose slots were given again to the same key is still seen
 * as stale.
 */
public record AllocationRef(PrefixKey key, long allocationId, int startSlot, int slotCount) {
    public AllocationRef {
        Objects.requireNonNull(key, "key");
        if (startSlot < 0 || slotCount <= 0) {
            throw new IllegalArgumentException("bad slot range: start " + startSlot + ", count " + slotCount);
        }
    }

    /** First byte of the allocation in the L2 file. */
    public long fileOffset(final long slotBytes) {
        return startSlot * slotBytes;
    }

    /** Bytes of the allocation. */
    public long lengthBytes(final long slotBytes) {
        return slotCount * slotBytes;
    }
}
