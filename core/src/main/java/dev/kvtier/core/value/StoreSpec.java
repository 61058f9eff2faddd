package dev.kvtier.core.value;

import java.util.List;
import java.util.Objects;

/**
 * One queued store of a finished request: the engine's KV blocks {@code blocks} (in prefix order) go to the file
 * range of allocation {@code alloc} starting at {@code fileOffset}, one slot per block.
 */
public record StoreSpec(AllocationRef alloc, List<Integer> blocks, long fileOffset) {
    public StoreSpec {
        Objects.requireNonNull(alloc, "alloc");
        blocks = List.copyOf(blocks);
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException("a store spec needs at least one block");
        }
        if (blocks.size() > alloc.slotCount()) {
            throw new IllegalArgumentException(blocks.size() + " blocks do not fit allocation " + alloc);
        }
    }

    /** A spec that fills the allocation from its first slot. */
    public static StoreSpec of(final AllocationRef alloc, final List<Integer> blocks, final long slotBytes) {
        return new StoreSpec(alloc, blocks, alloc.fileOffset(slotBytes));
    }
}
