package dev.kvtier.core.value;

import java.util.Objects;

/**
 * One range of a grouped load: {@code lengthBytes} at {@code fileOffset} (inside allocation {@code alloc}) go to
 * {@code destOffset} of the destination region.
 */
public record LoadRange(AllocationRef alloc, long fileOffset, long lengthBytes, long destOffset) {
    public LoadRange {
        Objects.requireNonNull(alloc, "alloc");
        if (fileOffset < 0 || lengthBytes <= 0 || destOffset < 0) {
            throw new IllegalArgumentException("bad load range: file " + fileOffset + ", length " + lengthBytes
                + ", dest " + destOffset);
        }
    }

    /** The whole allocation, to {@code destOffset}. */
    public static LoadRange whole(final AllocationRef alloc, final long slotBytes, final long destOffset) {
        return new LoadRange(alloc, alloc.fileOffset(slotBytes), alloc.lengthBytes(slotBytes), destOffset);
    }

    public long fileEnd() {
        return fileOffset + lengthBytes;
    }
}
