package dev.kvtier.core.l1;

import dev.kvtier.core.geometry.Alignment;

/**
 * The admission arithmetic: headroom {@code H = min(l1, align4096(max(4096, ceil(l1 / headroomRatio))))} and
 * {@code saveTarget = l1 - H}. After a grouped store, resident bytes are trimmed to
 * {@code max(bytes just stored, saveTarget)}; promotions are not trimmed and may use the headroom.
 *
 * @param l1Bytes     the L1 size, aligned (the pool's capacity)
 * @param headroomBytes H
 * @param saveTargetBytes l1 - H
 */
public record Admission(long l1Bytes, long headroomBytes, long saveTargetBytes) {

    public Admission {
        if (headroomBytes + saveTargetBytes != l1Bytes) {
            throw new IllegalArgumentException("saveTarget + H must equal l1");
        }
    }

    /** Computes H and the save target for an L1 of {@code l1Bytes} (aligned up) and a ratio. */
    public static Admission of(final long l1Bytes, final int headroomRatio) {
        if (l1Bytes <= 0 || headroomRatio <= 0) {
            throw new IllegalArgumentException("l1Bytes and headroomRatio must be positive: " + l1Bytes + ", "
                + headroomRatio);
        }
        final long l1 = Alignment.up(l1Bytes);
        final long ceil = (l1 + headroomRatio - 1) / headroomRatio;
        final long h = Math.min(l1, Alignment.up(Math.max(Alignment.BYTES, ceil)));
        return new Admission(l1, h, l1 - h);
    }

    /** The resident-bytes bound after a store of {@code storedBytes}. */
    public long trimTarget(final long storedBytes) {
        return Math.max(storedBytes, saveTargetBytes);
    }
}
