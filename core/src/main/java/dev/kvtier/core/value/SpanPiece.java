package dev.kvtier.core.value;

import java.util.Objects;

/**
 * One span as a client sends it: {@code lengthBytes} at {@code srcOffset} of the staging buffer belong at
 * {@code fileOffset} of L2, and belong to allocation {@code alloc}.
 */
public record SpanPiece(AllocationRef alloc, long srcOffset, long fileOffset, long lengthBytes) {
    public SpanPiece {
        Objects.requireNonNull(alloc, "alloc");
        if (srcOffset < 0 || fileOffset < 0 || lengthBytes <= 0) {
            throw new IllegalArgumentException("bad span: src " + srcOffset + ", file " + fileOffset + ", length "
                + lengthBytes);
        }
    }

    public long srcEnd() {
        return srcOffset + lengthBytes;
    }

    public long fileEnd() {
        return fileOffset + lengthBytes;
    }
}
