package dev.kvtier.harness.profile;

/**
 * What the core's own work costs on the (single) server thread, in virtual time. An admission change that adds
 * per-span work shows up in virtual time even when the disk is not the bottleneck.
 *
 * @param name                for reports
 * @param spanNs              per span admitted into L1 (reserve, insert, batch append)
 * @param entryNs             per L1 entry touched otherwise (evicted, hit)
 * @param ioSubmitNs          per I/O submitted
 * @param ioCompleteNs        per I/O completion handled
 * @param requestNs           per client call handled (lookup, allocate, store, load, commit)
 * @param memcpyBytesPerSec   host memory copy bandwidth (staging to L1, L1 to L1)
 * @param dmaBytesPerSec      engine KV memory to and from host copy bandwidth (GPU DMA in the reference)
 */
public record HostCostProfile(String name, long spanNs, long entryNs, long ioSubmitNs, long ioCompleteNs,
                              long requestNs, long memcpyBytesPerSec, long dmaBytesPerSec) {

    /**
     * kvtier's Java core on one server core: a few microseconds per span and per I/O (map and tree updates, event
     * emission), 10 GB/s single-thread memcpy, 25 GB/s PCIe 4.0 x16 DMA to and from engine memory. Estimates until
     * {@code kvtier calibrate} measures the real core.
     */
    public static final HostCostProfile JAVA_CORE = new HostCostProfile("java-core", 2_000, 500, 2_000, 1_000,
        2_000, 10_000_000_000L, 25_000_000_000L);

    /**
     * The reference Python server, back-computed from its pull request: per-slot admission of 512 spans a request
     * added about 0.9 s to cold TTFT over 200 requests at concurrency 8 (2.8 s to 3.7 s), which a serialized
     * server thread explains with roughly 200 us of interpreter work per span and per entry.
     */
    public static final HostCostProfile REFERENCE_PYTHON = new HostCostProfile("reference-python", 200_000, 20_000,
        30_000, 20_000, 100_000, 10_000_000_000L, 25_000_000_000L);

    public HostCostProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("host cost profile needs a name");
        }
        if (spanNs < 0 || entryNs < 0 || ioSubmitNs < 0 || ioCompleteNs < 0 || requestNs < 0) {
            throw new IllegalArgumentException("host costs must not be negative");
        }
        if (memcpyBytesPerSec <= 0 || dmaBytesPerSec <= 0) {
            throw new IllegalArgumentException("copy bandwidths must be positive");
        }
    }

    /** A bundled profile by name, or null. */
    public static HostCostProfile bundled(final String name) {
        return switch (name) {
            case "java-core" -> JAVA_CORE;
            case "reference-python" -> REFERENCE_PYTHON;
            default -> null;
        };
    }
}
