package dev.kvtier.realio.memory;

import dev.kvtier.core.port.MemoryRegion;
import java.lang.foreign.MemorySegment;

/**
 * A region of real, 4096-aligned native memory. Devices move bytes to and from {@link #segment()} directly (with
 * O_DIRECT, by DMA). Freed regions stay mapped until their memory closes, so a late device access cannot fault,
 * but using one is a bug the owner reports. A region knows the memory that allocated it (none for a
 * {@link #wrap wrapped} one), so that memory resolves only its own regions ({@link NativeMemory#resolve}).
 */
public final class NativeRegion implements MemoryRegion {
    private final NativeMemory owner;
    private final String name;
    private final MemorySegment segment;
    private boolean freed;

    NativeRegion(final NativeMemory owner, final String name, final MemorySegment segment) {
        if (segment.address() % 4096 != 0) {
            throw new IllegalArgumentException("region " + name + " at 0x" + Long.toHexString(segment.address())
                + " is not 4096-aligned");
        }
        this.owner = owner;
        this.name = name;
        this.segment = segment;
    }

    /**
     * A region over memory the caller owns (for tests and tools that hand it to a device's typed
     * {@code submitBlock}); no NativeMemory resolves or frees it.
     */
    public static NativeRegion wrap(final String name, final MemorySegment segment) {
        return new NativeRegion(null, name, segment);
    }

    /** The memory that allocated this region, or null for a wrapped one. */
    NativeMemory owner() {
        return owner;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long sizeBytes() {
        return segment.byteSize();
    }

    /** The region's memory. */
    public MemorySegment segment() {
        return segment;
    }

    /** The native address of byte {@code offset}. */
    public long address(final long offset) {
        return segment.address() + offset;
    }

    boolean freed() {
        return freed;
    }

    void markFreed(final boolean value) {
        freed = value;
    }

    @Override
    public String toString() {
        return "NativeRegion[" + name + ", " + segment.byteSize() + " B at 0x" + Long.toHexString(segment.address())
            + "]";
    }
}
