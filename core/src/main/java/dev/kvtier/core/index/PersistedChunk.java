package dev.kvtier.core.index;

import dev.kvtier.core.value.PrefixKey;

/**
 * One committed chunk as the index encodes it (a COMMIT record, a chunk of a checkpoint): its key, model, allocation,
 * slots, and per slot whether its checksum is known and the checksum. The codec reads it at once and keeps nothing, so
 * the L2 directory hands its own live chunks to the log as they are: no copy, and no second object a chunk kept for
 * the log's sake (which every young collection would copy). {@link IndexChunk} is the decoded form, and one too.
 */
public interface PersistedChunk {
    PrefixKey key();

    int modelId();

    long allocationId();

    int startSlot();

    int slotCount();

    /** The checksum of the chunk's slot {@code i} (0 to {@code slotCount() - 1}); meaningful only when known. */
    long sum(int i);

    /** False when no accepted span covered the chunk's slot {@code i} whole: it is never served from L2. */
    boolean known(int i);
}
