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
 */
public record ModelGeometry(String name, int kvHeads, int headDim, int layers, int blockTokens, int dtypeBytes) {

    /** Qwen3-8B in bf16: 8 x 128 x 2 x 36 x 16 x 2 = 2,359,296 bytes a slot (576 x 4096). */
    public static final ModelGeometry QWEN3_8B_BF16 = new ModelGeometry("Qwen3-8B", 8, 128, 36, 16, 2);

    public ModelGeometry {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("model name must not be blank");
        }
        positive("kvHeads", kvHeads);
        positive("headDim", headDim);
        positive("layers", layers);
        positive("blockTokens", blockTokens);
        positive("dtypeBytes", dtypeBytes);
        final long slot = computeSlotBytes(kvHeads, headDim, layers, blockTokens, dtypeBytes);
        if (!Alignment.isAligned(slot)) {
            throw new IllegalArgumentException("slot size of " + name + " is " + slot
                + " B, not a multiple of 4096; every L2 offset must be aligned");
        }
    }

    /** kvHeads x headDim x 2 (K and V) x layers x blockTokens x dtypeBytes. */
    public long slotBytes() {
        return computeSlotBytes(kvHeads, headDim, layers, blockTokens, dtypeBytes);
    }

    /** Full blocks in {@code tokens} tokens; a trailing partial block is not stored. */
    public int fullBlocks(final long tokens) {
        if (tokens < 0) {
            throw new IllegalArgumentException("tokens must not be negative: " + tokens);
        }
        return Math.toIntExact(tokens / blockTokens);
    }

    private static long computeSlotBytes(final int kvHeads, final int headDim, final int layers,
                                         final int blockTokens, final int dtypeBytes) {
        return Math.multiplyExact(Math.multiplyExact(Math.multiplyExact((long) kvHeads, headDim) * 2L, layers),
            (long) blockTokens * dtypeBytes);
    }

    private static void positive(final String what, final int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
