package dev.kvtier.core.port;

/**
 * The memory port: where the core gets its L1 pool and how it moves bytes between regions. The simulator's
 * implementation tracks the provenance of each byte range instead of the bytes, so very large workloads simulate in
 * little heap; the real one uses native, 4096-aligned memory segments.
 *
 * <p>Two kinds of content pass through a region. KV data is only moved ({@link #copy}) and fingerprinted
 * ({@link #checksum}); the core never looks at its bytes. Index metadata (the crash-safe L2 index's log and
 * checkpoints) is small and is written and read as real bytes ({@link #write}, {@link #read}) in every
 * implementation, so it survives a simulated crash exactly as it would a real one.
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

    /**
     * A 64-bit fingerprint of the content of {@code [offset, offset + lengthBytes)}: equal content gives equal values
     * and different content different values but with negligible probability (real memory: XXH3-64 of the bytes;
     * simulated memory: XXH3-64 of the provenance runs, position-relative). The core keeps one per committed slot
     * and checks it whenever a slot is read back from L2.
     */
    long checksum(MemoryRegion region, long offset, long lengthBytes);

    /** Writes {@code length} bytes of {@code src} from {@code srcOffset} into {@code dst} at {@code dstOffset}. */
    void write(MemoryRegion dst, long dstOffset, byte[] src, int srcOffset, int length);

    /** Reads {@code length} bytes of {@code src} at {@code srcOffset} into {@code dst} from {@code dstOffset}. */
    void read(MemoryRegion src, long srcOffset, byte[] dst, int dstOffset, int length);
}
