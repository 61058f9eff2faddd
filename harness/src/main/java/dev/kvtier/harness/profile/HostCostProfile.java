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
 * @param copiesOnServerThread whether the server's copies (into L1, and out of it into engine memory) run on its one
 *                             thread, holding up every call behind them (kvtier's core), or beside it, delaying only
 *                             the reply of the operation they belong to (the reference: native copies outside its
 *                             interpreter's event loop)
 */
public record HostCostProfile(String name, long spanNs, long entryNs, long ioSubmitNs, long ioCompleteNs,
                              long requestNs, long memcpyBytesPerSec, long dmaBytesPerSec,
                              boolean copiesOnServerThread) {

    /** A profile whose copies run on the server thread. */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec, true);
    }

    /**
     * kvtier's Java core on one server core: a few microseconds per span and per I/O (map and tree updates, event
     * emission), 10 GB/s single-thread memcpy, 25 GB/s PCIe 4.0 x16 DMA to and from engine memory. Estimates until
     * {@code kvtier calibrate} measures the real core.
     */
    public static final HostCostProfile JAVA_CORE = new HostCostProfile("java-core", 2_000, 500, 2_000, 1_000,
        2_000, 10_000_000_000L, 25_000_000_000L);

    /**
     * The reference Python server, back-computed from its pull request. Per-slot admission turned one span a request
     * into 512 and added about 0.9 s to cold TTFT (2.8 s to 3.7 s) at concurrency 8: each of the 8 engine steps a
     * request waits through lost about 112 ms to the server thread, which 511 more spans and the 511 more entries
     * trimmed after each store explain at about 200 us of interpreter work per span and 20 us per entry. Its bulk
     * copies run in native code beside the event loop: the contiguous cold TTFT of 2.8 s is the prefill time alone,
     * leaving no room for 120 ms of copying in front of each step's scheduler calls.
     */
    public static final HostCostProfile REFERENCE_PYTHON = new HostCostProfile("reference-python", 200_000, 20_000,
        30_000, 20_000, 100_000, 10_000_000_000L, 25_000_000_000L, false);

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
