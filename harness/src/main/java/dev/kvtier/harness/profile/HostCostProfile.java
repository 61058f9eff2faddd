package dev.kvtier.harness.profile;

/**
 * What the core's own work costs on the (single) server thread, in virtual time. An admission change that adds
 * per-span work shows up in virtual time even when the disk is not the bottleneck.
 *
 * <p>Four costs are what a real run pays on its one thread besides the core's bookkeeping and copies: the core's
 * checksums (XXH3-64 of every whole slot a store puts in L1 and of every slot read back from L2), the workload's
 * byte check of every loaded slot and its fill of every computed slot with the key's pattern, and the run's own
 * observers of every event (invariant checkers, metrics, event digest). 0 means not charged: the bundled profiles
 * leave them at 0 (their virtual time is what it was before they existed); {@code kvtier calibrate} measures them.
 * Work done while the server runs a step is charged to the server; work outside a step (a fill when the simulated
 * GPU finishes a prefill, a finished request's copy into staging, the check of loaded bytes) is the engine's, charged
 * to the engine's own worker or, with {@code engineOnServerThread}, to the server's one thread as well.
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
 * @param checksumBytesPerSec slot checksum bandwidth (0: not charged)
 * @param verifyBytesPerSec   the workload's check of loaded bytes, bandwidth (0: not charged)
 * @param stampBytesPerSec    the workload's fill of computed slots, bandwidth (0: not charged)
 * @param eventNs             per event, the run's own observers (checkers, metrics, digest) (0: not charged)
 * @param engineOnServerThread whether the engine's client-side work (filling computed slots, copying a finished
 *                             request's KV into staging, checking loaded bytes, and the observers of the events it
 *                             causes) runs on the server's one thread, one task after another with the server's
 *                             inputs, as in kvtier's real mode, where engine and server share one loop thread; or on
 *                             the engine's own worker beside the server, as with an inference engine in a process of
 *                             its own (the reference, and the bundled profiles). {@code kvtier calibrate} measures
 *                             kvtier's real mode, so its profiles set it.
 * @param checksumCopiedBytesPerSec slot checksum bandwidth over bytes the memory copied just before (a store
 *                             checksums each slot of a span right after copying the span into L1, much of it still in
 *                             the CPU's caches; a slot read back from L2 was not copied and costs
 *                             {@code checksumBytesPerSec}); 0: as {@code checksumBytesPerSec}
 * @param copyOpNs            per copy, besides its bytes at the copy bandwidth (0: not charged): a copy of a slot or
 *                             two costs more per byte than a large one (on this project's VM, 2026-12-03, a real
 *                             per-slot run's 3,423 copies moved 14.5 GB at 8.4 GB/s where a contiguous run's 72 moved
 *                             it at 12.1-12.5 GB/s: about 160 us a copy)
 * @param otherWorkPpm        the loop's other work that grows with its byte work, in millionths of the byte work's
 *                             time: every copy, checksum, fill and check is charged that much more (0: not charged).
 *                             A real run's loop thread spends time on a CPU besides its timed byte work and its
 *                             per-event work (on this project's VM, 2026-12-05, 2.0 to 3.9 % of the byte work in five
 *                             workloads); {@code kvtier calibrate} with a calibration run measures both parts
 */
public record HostCostProfile(String name, long spanNs, long entryNs, long ioSubmitNs, long ioCompleteNs,
                              long requestNs, long memcpyBytesPerSec, long dmaBytesPerSec,
                              boolean copiesOnServerThread, long checksumBytesPerSec, long verifyBytesPerSec,
                              long stampBytesPerSec, long eventNs, boolean engineOnServerThread,
                              long checksumCopiedBytesPerSec, long copyOpNs, long otherWorkPpm) {
    /** The most {@code otherWorkPpm} may be: the other work as long as the byte work. */
    public static final long OTHER_WORK_PPM_MAX = 1_000_000;

    /** A profile that charges no other work in proportion to the byte work. */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec, final boolean copiesOnServerThread,
                           final long checksumBytesPerSec, final long verifyBytesPerSec, final long stampBytesPerSec,
                           final long eventNs, final boolean engineOnServerThread,
                           final long checksumCopiedBytesPerSec, final long copyOpNs) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec,
            copiesOnServerThread, checksumBytesPerSec, verifyBytesPerSec, stampBytesPerSec, eventNs,
            engineOnServerThread, checksumCopiedBytesPerSec, copyOpNs, 0);
    }

    /** A profile that charges nothing per copy besides its bytes. */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec, final boolean copiesOnServerThread,
                           final long checksumBytesPerSec, final long verifyBytesPerSec, final long stampBytesPerSec,
                           final long eventNs, final boolean engineOnServerThread,
                           final long checksumCopiedBytesPerSec) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec,
            copiesOnServerThread, checksumBytesPerSec, verifyBytesPerSec, stampBytesPerSec, eventNs,
            engineOnServerThread, checksumCopiedBytesPerSec, 0);
    }

    /** A profile whose checksums cost the same whether or not their bytes were just copied. */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec, final boolean copiesOnServerThread,
                           final long checksumBytesPerSec, final long verifyBytesPerSec, final long stampBytesPerSec,
                           final long eventNs, final boolean engineOnServerThread) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec,
            copiesOnServerThread, checksumBytesPerSec, verifyBytesPerSec, stampBytesPerSec, eventNs,
            engineOnServerThread, 0);
    }

    /** A profile whose engine has its own worker (as the bundled ones). */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec, final boolean copiesOnServerThread,
                           final long checksumBytesPerSec, final long verifyBytesPerSec, final long stampBytesPerSec,
                           final long eventNs) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec,
            copiesOnServerThread, checksumBytesPerSec, verifyBytesPerSec, stampBytesPerSec, eventNs, false);
    }

    /** A profile whose copies run on the server thread and that charges none of the last four costs. */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec, true);
    }

    /** A profile that charges none of the last four costs (as the bundled ones). */
    public HostCostProfile(final String name, final long spanNs, final long entryNs, final long ioSubmitNs,
                           final long ioCompleteNs, final long requestNs, final long memcpyBytesPerSec,
                           final long dmaBytesPerSec, final boolean copiesOnServerThread) {
        this(name, spanNs, entryNs, ioSubmitNs, ioCompleteNs, requestNs, memcpyBytesPerSec, dmaBytesPerSec,
            copiesOnServerThread, 0, 0, 0, 0);
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
        if (checksumBytesPerSec < 0 || verifyBytesPerSec < 0 || stampBytesPerSec < 0 || eventNs < 0
            || checksumCopiedBytesPerSec < 0 || copyOpNs < 0) {
            throw new IllegalArgumentException("checksum, verify and stamp bandwidths and the event and copy costs must"
                + " not be negative (0: not charged)");
        }
        if (otherWorkPpm < 0 || otherWorkPpm > OTHER_WORK_PPM_MAX) {
            throw new IllegalArgumentException("otherWorkPpm must be 0 to " + OTHER_WORK_PPM_MAX + ", got "
                + otherWorkPpm);
        }
    }

    /** {@code byteWorkNs} of byte work with the other work that grows with it ({@code otherWorkPpm}), rounded up. */
    public long withOtherWork(final long byteWorkNs) {
        return otherWorkPpm == 0 ? byteWorkNs
            : Math.addExact(byteWorkNs, Math.ceilDiv(Math.multiplyExact(byteWorkNs, otherWorkPpm), 1_000_000L));
    }

    /** Nanoseconds to move {@code bytes} at {@code bytesPerSec}, rounded up; 0 when the rate is 0 (not charged). */
    public static long chargeNs(final long bytes, final long bytesPerSec) {
        return bytesPerSec == 0 ? 0 : Math.ceilDiv(Math.multiplyExact(bytes, 1_000_000_000L), bytesPerSec);
    }

    /** Nanoseconds to copy {@code bytes} at {@code bytesPerSec} (this profile's memcpy or DMA rate), in one copy. */
    public long copyNs(final long bytes, final long bytesPerSec) {
        return chargeNs(bytes, bytesPerSec) + copyOpNs;
    }

    /** Nanoseconds to checksum {@code bytes}, at the copied-bytes rate when {@code afterCopy} and it is set. */
    public long checksumNs(final long bytes, final boolean afterCopy) {
        return chargeNs(bytes, afterCopy && checksumCopiedBytesPerSec > 0 ? checksumCopiedBytesPerSec
            : checksumBytesPerSec);
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
