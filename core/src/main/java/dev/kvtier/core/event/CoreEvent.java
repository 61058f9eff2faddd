package dev.kvtier.core.event;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;

/**
 * Every input the core receives and every decision it makes, as one closed vocabulary of records. The journal stores
 * these records, the invariant checkers and metrics read them, and replay compares them. Fields are primitives,
 * enums, {@link PrefixKey}s and lists of small value records (all of package {@code value}, the only part of the core
 * this package uses), so a record has one canonical encoding.
 *
 * <p>What a record is to replay is its type: every record implements exactly one of three sealed sub-interfaces.
 * <ul>
 *   <li>{@link Input}: carries everything needed to re-drive a fresh core through {@code KvServer} and
 *       {@code KvClient} (lookups, allocations, claim releases, saves, loads, device completions, drains, opening
 *       and shutting down the index); replay feeds it.</li>
 *   <li>{@link Decision}: made by the core; replay compares it with the recorded one.</li>
 *   <li>{@link Note}: written by a workload driver for reports and traces; not seen by the core, skipped by
 *       replay.</li>
 * </ul>
 * Code that needs the kind switches over these three (or over one of them) with no {@code default}.
 *
 * <p>Adding a variant breaks every exhaustive {@code switch} over this interface until it is handled, and it does not
 * compile until it says which kind it is; that is the point (STYLE rule 14).
 */
public sealed interface CoreEvent {

    /** A record replay feeds to a fresh core: a client call, a device completion, or a runner's request. */
    sealed interface Input extends CoreEvent {}

    /** A record the core makes in answer to an input; replay compares it with the recorded one. */
    sealed interface Decision extends CoreEvent {}

    /** A workload driver's annotation, for reports and traces: not an input of the core, not compared by replay. */
    sealed interface Note extends CoreEvent {}

    /** Why a ring allocation was not made. */
    enum SkipReason {
        CLAIMED,
        COMMITTED,
        TOO_LARGE,
        /** First sight of the key under {@code L2Admission.SECOND_SIGHT}. */
        NOT_ADMITTED
    }

    /** Why a chunk left the L2 ring. */
    enum RingEvictReason {
        SPACE,
        WRAP,
        WRITE_FAILED,
        CORRUPT,
        NOT_DURABLE
    }

    /** Why an L1 entry left the entry map. */
    enum L1EvictReason {
        RESERVE,
        TRIM,
        OVERLAP
    }

    /** Why a grouped write batch was sealed. */
    enum SealReason {
        NOT_ADJACENT,
        SIZE,
        MEMORY_WAIT,
        END_OF_STORE
    }

    /** Why a span was not accepted by the server. */
    enum RejectReason {
        STALE,
        MISALIGNED,
        OUTSIDE_ALLOCATION,
        LARGER_THAN_L1,
        /** Into a committed allocation, with bytes other than those committed (or part of a slot). */
        COMMITTED
    }

    /** Why a load failed. */
    enum LoadFailure {
        NOT_COMMITTED,
        LEASE_REVOKED,
        READ_ERROR,
        CLOSED,
        CORRUPT
    }

    /** Why a promotion was not inserted into L1. */
    enum DiscardReason {
        SUPERSEDED,
        LOAD_FAILED,
        PARTIAL_SLOT
    }

    // ---- L2 directory and ring ----

    /** Input: a lookup of {@code keys} for {@code modelId}, with the committed prefix length it was answered. */
    record Lookup(int modelId, List<PrefixKey> keys, int prefixLength) implements Input {
        public Lookup {
            keys = List.copyOf(keys);
        }
    }

    /** Input: an allocation request for {@code keys}, {@code slotsPerKey} slots each. */
    record AllocateRequested(long requestId, int modelId, List<PrefixKey> keys, int slotsPerKey) implements Input {
        public AllocateRequested {
            keys = List.copyOf(keys);
        }
    }

    /** Decision: a writer claim on {@code slotCount} slots at {@code startSlot}; the key is not yet visible. */
    record Allocated(long requestId, PrefixKey key, long allocationId, int startSlot,
                     int slotCount) implements Decision {}

    /** Decision: the key was not allocated (one writer per key, or it cannot fit). */
    record AllocationSkipped(long requestId, PrefixKey key, SkipReason reason) implements Decision {}

    /** Decision: the ring's tail region {@code [fromSlot, fromSlot + slotCount)} was marked SKIP and head wrapped. */
    record RingWrapped(int fromSlot, int slotCount) implements Decision {}

    /** Decision: a chunk left the ring (oldest first) and its key left the directory. */
    record RingEvicted(PrefixKey key, long allocationId, int startSlot, int slotCount, boolean committed,
                       int leases, RingEvictReason reason) implements Decision {}

    /** Input: a claim release request, with whether it was honoured. */
    record ClaimReleased(AllocationRef ref, boolean released) implements Input {}

    /** Decision: a commit of these allocations was asked for (by a client after its batches returned). */
    record CommitRequested(List<AllocationRef> refs) implements Decision {
        public CommitRequested {
            refs = List.copyOf(refs);
        }
    }

    /** Decision: the key is now visible to lookups. */
    record Committed(PrefixKey key, long allocationId) implements Decision {}

    /** Decision: a commit for an allocation that is no longer current; a counted no-op. */
    record LateCommit(PrefixKey key, long allocationId) implements Decision {}

    // ---- server boundary and grouped store ----

    /** Decision (of a client): a staging batch was sent to the server as a grouped store, spans in send order. */
    record StoreSent(long storeId, List<SpanPiece> spans) implements Decision {
        public StoreSent {
            spans = List.copyOf(spans);
        }
    }

    /**
     * Decision: a grouped store of {@code spanCount} spans, {@code bytes} in all, reached the server. Not an input:
     * the client's save queue sends it in the course of a save ({@link SaveQueued}), so replay compares it.
     */
    record StoreReceived(long storeId, int spanCount, long bytes) implements Decision {}

    /** Decision: a span was not accepted; it writes nothing and its key is not accepted. */
    record SpanRejected(long storeId, PrefixKey key, long allocationId, long fileOffset, long lengthBytes,
                        RejectReason reason) implements Decision {}

    /** Decision: the boundary turned {@code spansIn} spans into {@code spansOut} (coalescing on, or just filtering). */
    record SpansCoalesced(long storeId, int spansIn, int spansOut) implements Decision {}

    /** Decision: an L1 slice was reserved at {@code poolOffset} for the file range. */
    record SliceReserved(long opId, long fileOffset, long lengthBytes, long poolOffset) implements Decision {}

    /**
     * Decision: an entry was inserted into the entry map ({@code headroom} for promotions). {@code srcOffset} is
     * where a stored entry's bytes came from in the store's source (-1 for a promotion).
     */
    record EntryInserted(long opId, long fileOffset, long lengthBytes, long poolOffset, long srcOffset,
                         boolean headroom, int prefixIndex) implements Decision {}

    /** Decision: an entry left the entry map. {@code pendingWrite}: its slice stays owned by a pending L2 write. */
    record EntryEvicted(long fileOffset, long lengthBytes, long poolOffset, boolean headroom, boolean pendingWrite,
                        L1EvictReason reason) implements Decision {}

    /** Decision: an L1 slice returned to the pool. */
    record SliceFreed(long poolOffset, long lengthBytes) implements Decision {}

    /** Decision: an operation waits for memory held by pending L2 writes. */
    record MemoryWait(long opId, long neededBytes) implements Decision {}

    /** Decision: resident bytes were trimmed after a grouped store. */
    record Trimmed(long storeId, long targetBytes, long residentBefore, long residentAfter,
                   int evicted) implements Decision {}

    /** Decision: a grouped store completed (bytes are in L1; L2 writes may still be pending). */
    record StoreCompleted(long storeId, int acceptedSpans, int rejectedSpans, long bytes) implements Decision {}

    // ---- L2 writes and I/O ----

    /** Decision: a grouped write batch was sealed; {@code dependsOn} earlier overlapping writes must finish first. */
    record BatchSealed(long batchId, long storeId, long fileOffset, long lengthBytes, int entries, int dependsOn,
                       SealReason reason) implements Decision {}

    /** Decision: an I/O went to the device. */
    record IoSubmitted(long ioId, IoOp op, long fileOffset, long lengthBytes, int segments) implements Decision {}

    /** Input: the device completed an I/O with {@code result} (bytes, or a negative errno). */
    record IoCompleted(long ioId, IoOp op, long fileOffset, long result) implements Input {}

    /** Decision: a write batch finished (successfully or not). */
    record WriteFinished(long batchId, long fileOffset, long lengthBytes, boolean ok) implements Decision {}

    // ---- grouped load ----

    /** Input: a grouped load of {@code ranges}, {@code bytes} in all. */
    record LoadRequested(long loadId, List<LoadRange> ranges, long bytes) implements Input {
        public LoadRequested {
            ranges = List.copyOf(ranges);
        }
    }

    /** Decision: bytes served from L1 (a stitched or sub-range hit). */
    record LoadHit(long loadId, long fileOffset, long lengthBytes) implements Decision {}

    /** Decision: a gap to read from L2. */
    record LoadGap(long loadId, long fileOffset, long lengthBytes) implements Decision {}

    /** Decision: the load waits for a pending write that overlaps a gap. */
    record LoadWaitsForWrite(long loadId, long batchId) implements Decision {}

    /** Decision: a read landed and was inserted into L1 as a headroom entry. */
    record Promoted(long loadId, long fileOffset, long lengthBytes) implements Decision {}

    /** Decision: a read landed but was not inserted. */
    record PromotionDiscarded(long loadId, long fileOffset, long lengthBytes,
                              DiscardReason reason) implements Decision {}

    /** Decision: a load finished; every byte was copied to its destination. */
    record LoadCompleted(long loadId, long bytes, long hitBytes) implements Decision {}

    /** Decision: a load failed; the engine recomputes. */
    record LoadFailed(long loadId, LoadFailure reason) implements Decision {}

    // ---- client side ----

    /** Input: a finished request's store specs were queued for saving. */
    record SaveQueued(long requestId, List<StoreSpec> specs, int batches, long bytes) implements Input {
        public SaveQueued {
            specs = List.copyOf(specs);
        }
    }

    /** Decision: a staged batch of a request was sent to the server as store {@code storeId}. */
    record BatchSent(long requestId, int batchIndex, long storeId) implements Decision {}

    /** Decision: one staging batch was copied into staging memory. */
    record BatchStaged(long requestId, int batchIndex, int slots, long stagingOffset) implements Decision {}

    /** Decision: the request was released (all its KV is in staging). */
    record RequestReleased(long requestId) implements Decision {}

    /** Decision: the accepted keys of a request were committed after all its batches returned. */
    record RequestCommitted(long requestId, int acceptedKeys, int rejectedKeys) implements Decision {}

    /**
     * Input: a client's call reached the server ({@code toServer}), or its reply reached the client; what follows is
     * the delivered work. Replay delivers the call or reply parked under {@code callId} here.
     */
    record Delivered(long callId, boolean toServer) implements Input {}

    /** Input: a drain was asked for. */
    record DrainRequested() implements Input {}

    /** Decision: drain finished: no L2 write is pending. */
    record Drained(long writesCompleted) implements Decision {}

    // ---- crash-safe index and data validation ----

    /**
     * Decision: a slot read back from L2 did not match the checksum kept for it (or none was kept); the load fails
     * and the slot's chunk is evicted. {@code slotIndex} is the slot's position in its read, in verification order.
     */
    record ChecksumMismatch(long loadId, long fileOffset, long lengthBytes, int slotIndex) implements Decision {}

    /** Input: the runner opens the index: recover it from the index device, or start a fresh one (format). */
    record IndexOpenRequested(boolean recover) implements Input {}

    /** Decision: an I/O went to the index device (the metadata log or a checkpoint). */
    record IndexIoSubmitted(long ioId, IoOp op, long offset, long lengthBytes) implements Decision {}

    /** Input: the index device completed an I/O with {@code result} (bytes, or a negative errno). */
    record IndexIoCompleted(long ioId, IoOp op, long offset, long result) implements Input {}

    /**
     * Decision: a checkpoint of {@code chunks} committed chunks was made durable; the log restarts at
     * {@code nextSeq}.
     */
    record IndexCheckpointed(long epoch, long nextSeq, int chunks, long bytes) implements Decision {}

    /**
     * Decision: the index was opened: {@code recovered} committed chunks from a checkpoint and {@code records} log
     * records ({@code 0, 0} for a fresh start), {@code bytesRead} read from the index device.
     */
    record IndexOpened(long epoch, boolean recoveredFromDisk, int recovered, long records,
                       long bytesRead) implements Decision {}

    /** Input: the runner shuts the store down: drain, flush the data device, make the index log durable. */
    record ShutdownRequested() implements Input {}

    /** Decision: the shutdown finished; {@code durable} when every write and every index record is durable. */
    record ShutdownCompleted(boolean durable) implements Decision {}

    /** Decision: a committed chunk was rebuilt from the index device when the index was recovered (oldest first). */
    record ChunkRecovered(PrefixKey key, int modelId, long allocationId, int startSlot,
                          int slotCount) implements Decision {}

    /** Decision: the index device failed; index persistence stops until a checkpoint succeeds. */
    record IndexFailed(long result) implements Decision {}

    /** Decision: durable commits wait for the L2 writes of their ranges, then a flush of the data device. */
    record CommitPending(long commitId, int allocations, int waitingWrites) implements Decision {}

    /** Decision: a durable commit could not be made durable; its allocations were evicted (never visible). */
    record CommitRefused(long commitId, PrefixKey key, long allocationId) implements Decision {}

    // ---- driver notes (workload drivers; not inputs of the core, not compared by replay) ----

    /** Driver: a workload phase began (for example "cold" or "warm"). */
    record PhaseStarted(String phase) implements Note {}

    /** Driver: a request arrived; {@code cachedBlocks} of its {@code blocks} were found by lookup. */
    record RequestArrived(long requestId, String phase, int blocks, int cachedBlocks) implements Note {}

    /** Driver: a request finished: {@code latencyNs} from arrival to first token (released or loaded). */
    record RequestFinished(long requestId, String phase, long latencyNs, boolean ok) implements Note {}

    /**
     * Note: one engine step ended. {@code scheduleNs} is the time its scheduler spent in calls to the store (lookups
     * and allocations, queued on the server thread), {@code forwardNs} the GPU's forward pass, {@code finishNs} the
     * time its {@code get_finished} spent staging finished requests (copies and waits for staging room);
     * {@code durationNs} is the whole step, start to first tokens.
     */
    record StepCompleted(long step, String phase, int requests, long tokens, long scheduleNs, long forwardNs,
                         long finishNs, long durationNs) implements Note {}

    /** Note: a request's asynchronous load ended (or failed) after {@code waitNs}; it may be scheduled again. */
    record LoadWaited(long requestId, String phase, long waitNs, boolean ok) implements Note {}
}
