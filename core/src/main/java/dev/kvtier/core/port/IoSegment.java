package dev.kvtier.core.port;

import dev.kvtier.core.geometry.Alignment;
import java.util.Objects;

/**
 * One memory piece of an I/O: {@code lengthBytes} at {@code regionOffset} of {@code region}. Offsets and lengths
 * are multiples of 4096 (O_DIRECT).
 */
public record IoSegment(MemoryRegion region, long regionOffset, long lengthBytes) {
    public IoSegment {
        Objects.requireNonNull(region, "region");
        Alignment.requireAligned("segment offset", regionOffset);
        Alignment.requireAligned("segment length", lengthBytes);
        if (lengthBytes == 0) {
            throw new IllegalArgumentException("segment length must be positive");
        }
        if (regionOffset + lengthBytes > region.sizeBytes()) {
            throw new IllegalArgumentException("segment [" + regionOffset + ", +" + lengthBytes + ") exceeds region "
                + region.name() + " of " + region.sizeBytes() + " B");
        }
    }
}
