package dev.kvtier.core.port;

/**
 * The memory port: where the core gets its L1 pool and how it moves bytes between regions. The simulator's
 * implementation tracks the provenance of each byte range instead of the bytes, so very large workloads simulate in
 * little heap; the real one uses native, 4096-aligned memory segments.
 */
public interface Memory {
    /**
     * Allocates a region of {@code sizeBytes} (a multiple of 4096), aligned to 4096.
     *
     * @param name      for reports
     * @param sizeBytes size, a positive multiple of 4096
     */
    MemoryRegion allocate(String name, long sizeBytes);

    /** Copies {@code lengthBytes} from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}. */
    void copy(MemoryRegion src, long srcOffset, MemoryRegion dst, long dstOffset, long lengthBytes);

    /** Returns a region to the memory; the core no longer uses it. */
    void free(MemoryRegion region);
}
