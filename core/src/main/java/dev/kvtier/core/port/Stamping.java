package dev.kvtier.core.port;

/**
 * How a workload driver puts checkable content into memory and checks it after a load, whatever the memory is. The
 * content of tag {@code t} is a fixed function of {@code t} and the byte's position relative to the start of the
 * stamped range: the simulator records {@code (t, position)} as provenance; real memory writes a seeded pattern. A
 * load is correct when every loaded slot, checked with the tag its key was last stored with, has no mismatch.
 */
public interface Stamping {
    /** Fills {@code [offset, offset + lengthBytes)} of {@code region} with the content of {@code tag}. */
    void stamp(MemoryRegion region, long offset, long lengthBytes, long tag);

    /**
     * Checks {@code [offset, offset + lengthBytes)} of {@code region} against the content of {@code tag} stamped at
     * {@code offset}; returns the offset of the first byte that differs, or -1 when all match.
     */
    long firstMismatch(MemoryRegion region, long offset, long lengthBytes, long tag);
}
