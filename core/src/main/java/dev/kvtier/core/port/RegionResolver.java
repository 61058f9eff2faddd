package dev.kvtier.core.port;

/**
 * The pairing of a device with the memory whose bytes it moves. The core hands a device opaque
 * {@link MemoryRegion}s (in {@link IoSegment}s); a device that moves bytes itself (by DMA to native memory, or as
 * provenance in the simulator) needs each one as its memory's own region type. That memory implements this port,
 * the composition root builds the device with it, and the device resolves each segment's region through it: one
 * checked step, with one clear error for a region from another memory (a wiring bug), instead of a cast wherever
 * the device touches a region. A device that moves bytes only through {@link Memory#read} and {@link Memory#write}
 * needs no resolver; nor does one that moves none (replay).
 *
 * @param <R> the memory's own region type
 */
@FunctionalInterface
public interface RegionResolver<R extends MemoryRegion> {
    /**
     * {@code region} as this memory's own type; an {@link IllegalArgumentException} naming the region when this memory
     * did not allocate it. It reads only what allocation fixed, so device worker threads may call it too; whether the
     * region is still live is the memory's own check, when the memory itself is used.
     */
    R resolve(MemoryRegion region);
}
