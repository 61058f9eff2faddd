package dev.kvtier.core.geometry;

/**
 * The shape of a model's KV cache, from which the size of one slot (one block's KV for all layers) follows.
 * A geometry is configuration, not code: the record validates it and derives {@link #slotBytes()}.
 *
 * @param name        model name, for reports
 * @param kvHeads     key/value heads per layer
 * @param headDim     dimension of one head
 * @param layers      transformer layers
 * @param blockTokens tokens per engine KV block (reference default 16)
 * @param dtypeBytes  bytes per element (2 for bf16)
 * @param kvPerHead   vectors cached per head and token: 2 (a key and a value) for multi-head and grouped-query
 *                    attention; 1 for multi-head latent attention (MLA), which caches one compressed latent (its
 *                    {@code headDim} is the latent's width, rope part included)
 */
public record ModelGeometry(String name, int kvHeads, int headDim, int layers, int blockTokens, int dtypeBytes,
                            int kvPerHead) {

    /** Qwen3-8B in bf16: 8 x 128 x 2 x 36 x 16 x 2 = 2,359,296 bytes a slot (576 x 4096). */
    public static final ModelGeometry QWEN3_8B_BF16 = new ModelGeometry("Qwen3-8B", 8, 128, 36, 16, 2);

    /** A key and a value per head and token (multi-head or grouped-query attention). */
    public ModelGeometry(final String name, final int kvHeads, final int headDim, final int layers,
                         final int blockTokens, final int dtypeBytes) {
        this(name, kvHeads, headDim, layers, blockTokens, dtypeBytes, 2);
    }

    public ModelGeometry {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("model name must not be blank");
        }
        positive("kvHeads", kvHeads);
        positive("headDim", headDim);
        positive("layers", layers);
        positive("blockTokens", blockTokens);
        positive("dtypeBytes", dtypeBytes);
        if (kvPerHead != 1 && kvPerHead != 2) {
            throw new IllegalArgumentException("kvPerHead must be 2 (a key and a value) or 1 (a latent), got "
                + kvPerHead);
        }
        final long slot = computeSlotBytes(kvHeads, headDim, kvPerHead, layers, blockTokens, dtypeBytes);
        if (!Alignment.isAligned(slot)) {
            throw new IllegalArgumentException("slot size of " + name + " is " + slot
                + " B, not a multiple of 4096; every L2 offset must be aligned");
        }
    }

    /** kvHeads x headDim x kvPerHead (2: K and V) x layers x blockTokens x dtypeBytes. */
    public long slotBytes() {
        return computeSlotBytes(kvHeads, headDim, kvPerHead, layers, blockTokens, dtypeBytes);
    }

    /** Full blocks in {@code tokens} tokens; a trailing partial block is not stored. */
    public int fullBlocks(final long tokens) {
        if (tokens < 0) {
            throw new IllegalArgumentException("tokens must not be negative: " + tokens);
        }
        return Math.toIntExact(tokens / blockTokens);
    }

    private static long computeSlotBytes(final int kvHeads, final int headDim, final int kvPerHead, final int layers,
                                         final int blockTokens, final int dtypeBytes) {
        return Math.multiplyExact(Math.multiplyExact(Math.multiplyExact((long) kvHeads, headDim) * kvPerHead,
            layers), (long) blockTokens * dtypeBytes);
    }

    private static void positive(final String what, final int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
