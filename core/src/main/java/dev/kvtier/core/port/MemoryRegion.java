package dev.kvtier.core.port;

/**
 * An opaque, 4096-aligned region of memory obtained from a {@link Memory}. The core addresses bytes inside a region
 * only by offset; what the bytes are (real bytes, or a provenance record in simulation) is the Memory's business.
 * A device that needs a region's own type gets it from the memory it is paired with ({@link RegionResolver}).
 */
public interface MemoryRegion {
    /** The region's name, for events and reports (for example "l1-pool"). */
    String name();

    /** Size of the region in bytes. */
    long sizeBytes();
}
