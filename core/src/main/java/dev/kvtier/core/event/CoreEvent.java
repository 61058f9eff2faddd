package dev.kvtier.core.event;

import dev.kvtier.core.client.StoreSpec;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.span.SpanPiece;
import dev.kvtier.core.store.LoadRange;
import java.util.List;

/**
 * Every input the core receives and every decision it makes, as one closed vocabulary of records. The journal stores
 * these records, the invariant checkers and metrics read them, and replay compares them. Fields are primitives,
 * enums, {@link PrefixKey}s and lists of small value records, so a record has one canonical encoding.
 *
 * <p><b>Inputs</b> ({@link #isInput}) carry everything needed to re-drive a fresh core through {@code KvServer} and
 * {@code KvClient}: lookups, allocations, claim releases, saves, loads, device completions and drains. Every other
 * record is a decision, which replay compares with the recorded one.
 *
 * <p>Adding a variant breaks every exhaustive {@code switch} over this interface until it is handled; that is the
 * point (STYLE rule 14).
 */
public sealed interface CoreEvent {

    /** Why a ring allocation was not made. */
    enum SkipReason { CLAIMED, COMMITTED, TOO_LARGE }

    /** Why a chunk left the L2 ring. */
    enum RingEvictReason { SPACE, WRAP, WRITE_FAILED, CORRUPT, NOT_DURABLE }

    /** Why an L1 entry left the entry map. */
    enum L1EvictReason { RESERVE, TRIM, OVERLAP }

    /** Why a grouped write batch was sealed. */
    enum SealReason { NOT_ADJACENT, SIZE, MEMORY_WAIT, END_OF_STORE }

    /** Why a span was not accepted by the server. */
    enum RejectReason { STALE, MISALIGNED, OUTSIDE_ALLOCATION, LARGER_THAN_L1 }

    /** Why a load failed. */
    enum LoadFailure { NOT_COMMITTED, LEASE_REVOKED, READ_ERROR, CLOSED, CORRUPT }

    /** Why a promotion was not inserted into L1. */
    enum DiscardReason { SUPERSEDED, LOAD_FAILED, PARTIAL_SLOT }

    // ---- L2 index and ring ----

    /** Input: a lookup of {@code keys} for {@code modelId}, with the committed prefix length it was answered. */
    record Lookup(int modelId, List<PrefixKey> keys, int prefixLength) implements CoreEvent {
        public Lookup {
            keys = List.copyOf(keys);
        }
    }

    /** Input: an allocation request for {@code keys}, {@code slotsPerKey} slots each. */
    record AllocateRequested(long requestId, int modelId, List<PrefixKey> keys, int slotsPerKey)
        implements CoreEvent {
        public AllocateRequested {
            keys = List.copyOf(keys);
        }
    }

    /** Decision: a writer claim on {@code slotCount} slots at {@code startSlot}; the key is not yet visible. */
    record Allocated(long requestId, PrefixKey key, long allocationId, int startSlot, int slotCount)
        implements CoreEvent { }

    /** Decision: the key was not allocated (one writer per key, or it cannot fit). */
    record AllocationSkipped(long requestId, PrefixKey key, SkipReason reason) implements CoreEvent { }

    /** Decision: the ring's tail region {@code [fromSlot, fromSlot + slotCount)} was marked SKIP and head wrapped. */
    record RingWrapped(int fromSlot, int slotCount) implements CoreEvent { }

    /** Decision: a chunk left the ring (oldest first) and its key left the index. */
    record RingEvicted(PrefixKey key, long allocationId, int startSlot, int slotCount, boolean committed,
                       int leases, RingEvictReason reason) implements CoreEvent { }

    /** Input: a claim release request, with whether it was honoured. */
    record ClaimReleased(AllocationRef ref, boolean released) implements CoreEvent { }

    /** Decision: a commit of these allocations was asked for (by a client after its batches returned). */
    record CommitRequested(List<AllocationRef> refs) implements CoreEvent {
        public CommitRequested {
            refs = List.copyOf(refs);
        }
    }

    /** Decision: the key is now visible to lookups. */
    record Committed(PrefixKey key, long allocationId) implements CoreEvent { }

    /** Decision: a commit for an allocation that is no longer current; a counted no-op. */
    record LateCommit(PrefixKey key, long allocationId) implements CoreEvent { }

    // ---- server boundary and grouped store ----

    /** Decision (of a client): a staging batch was sent to the server as a grouped store, spans in send order. */
    record StoreSent(long storeId, List<SpanPiece> spans) implements CoreEvent {
        public StoreSent {
            spans = List.copyOf(spans);
        }
    }

    /** Input: a grouped store of {@code spanCount} spans, {@code bytes} in all, reached the server. */
    record StoreReceived(long storeId, int spanCount, long bytes) implements CoreEvent { }

    /** Decision: a span was not accepted; it writes nothing and its key is not accepted. */
    record SpanRejected(long storeId, PrefixKey key, long allocationId, long fileOffset, long lengthBytes,
                        RejectReason reason) implements CoreEvent { }

    /** Decision: the boundary turned {@code spansIn} spans into {@code spansOut} (coalescing on, or just filtering). */
    record SpansCoalesced(long storeId, int spansIn, int spansOut) implements CoreEvent { }

    /** Decision: an L1 slice was reserved at {@code poolOffset} for the file range. */
    record SliceReserved(long opId, long fileOffset, long lengthBytes, long poolOffset) implements CoreEvent { }

    /**
     * Decision: an entry was inserted into the entry map ({@code headroom} for promotions). {@code srcOffset} is
     * where a stored entry's bytes came from in the store's source (-1 for a promotion).
     */
    record EntryInserted(long opId, long fileOffset, long lengthBytes, long poolOffset, long srcOffset,
                         boolean headroom, int prefixIndex) implements CoreEvent { }

    /** Decision: an entry left the entry map. {@code pendingWrite}: its slice stays owned by a pending L2 write. */
    record EntryEvicted(long fileOffset, long lengthBytes, long poolOffset, boolean headroom, boolean pendingWrite,
                        L1EvictReason reason) implements CoreEvent { }

    /** Decision: an L1 slice returned to the pool. */
    record SliceFreed(long poolOffset, long lengthBytes) implements CoreEvent { }

    /** Decision: an operation waits for memory held by pending L2 writes. */
    record MemoryWait(long opId, long neededBytes) implements CoreEvent { }

    /** Decision: resident bytes were trimmed after a grouped store. */
    record Trimmed(long storeId, long targetBytes, long residentBefore, long residentAfter, int evicted)
        implements CoreEvent { }

    /** Decision: a grouped store completed (bytes are in L1; L2 writes may still be pending). */
    record StoreCompleted(long storeId, int acceptedSpans, int rejectedSpans, long bytes) implements CoreEvent { }

    // ---- L2 writes and I/O ----

    /** Decision: a grouped write batch was sealed; {@code dependsOn} earlier overlapping writes must finish first. */
    record BatchSealed(long batchId, long storeId, long fileOffset, long lengthBytes, int entries, int dependsOn,
                       SealReason reason) implements CoreEvent { }

    /** Decision: an I/O went to the device. */
    record IoSubmitted(long ioId, IoOp op, long fileOffset, long lengthBytes, int segments) implements CoreEvent { }

    /** Input: the device completed an I/O with {@code result} (bytes, or a negative errno). */
    record IoCompleted(long ioId, IoOp op, long fileOffset, long result) implements CoreEvent { }

    /** Decision: a write batch finished (successfully or not). */
    record WriteFinished(long batchId, long fileOffset, long lengthBytes, boolean ok) implements CoreEvent { }

    // ---- grouped load ----

    /** Input: a grouped load of {@code ranges}, {@code bytes} in all. */
    record LoadRequested(long loadId, List<LoadRange> ranges, long bytes) implements CoreEvent {
        public LoadRequested {
            ranges = List.copyOf(ranges);
        }
    }

    /** Decision: bytes served from L1 (a stitched or sub-range hit). */
    record LoadHit(long loadId, long fileOffset, long lengthBytes) implements CoreEvent { }

    /** Decision: a gap to read from L2. */
    record LoadGap(long loadId, long fileOffset, long lengthBytes) implements CoreEvent { }

    /** Decision: the load waits for a pending write that overlaps a gap. */
    record LoadWaitsForWrite(long loadId, long batchId) implements CoreEvent { }

    /** Decision: a read landed and was inserted into L1 as a headroom entry. */
    record Promoted(long loadId, long fileOffset, long lengthBytes) implements CoreEvent { }

    /** Decision: a read landed but was not inserted. */
    record PromotionDiscarded(long loadId, long fileOffset, long lengthBytes, DiscardReason reason)
        implements CoreEvent { }

    /** Decision: a load finished; every byte was copied to its destination. */
    record LoadCompleted(long loadId, long bytes, long hitBytes) implements CoreEvent { }

    /** Decision: a load failed; the engine recomputes. */
    record LoadFailed(long loadId, LoadFailure reason) implements CoreEvent { }

    // ---- client side ----

    /** Input: a finished request's store specs were queued for saving. */
    record SaveQueued(long requestId, List<StoreSpec> specs, int batches, long bytes) implements CoreEvent {
        public SaveQueued {
            specs = List.copyOf(specs);
        }
    }

    /** Decision: a staged batch of a request was sent to the server as store {@code storeId}. */
    record BatchSent(long requestId, int batchIndex, long storeId) implements CoreEvent { }

    /** Decision: one staging batch was copied into staging memory. */
    record BatchStaged(long requestId, int batchIndex, int slots, long stagingOffset) implements CoreEvent { }

    /** Decision: the request was released (all its KV is in staging). */
    record RequestReleased(long requestId) implements CoreEvent { }

    /** Decision: the accepted keys of a request were committed after all its batches returned. */
    record RequestCommitted(long requestId, int acceptedKeys, int rejectedKeys) implements CoreEvent { }

    /** Input: a drain was asked for. */
    record DrainRequested() implements CoreEvent { }

    /** Decision: drain finished: no L2 write is pending. */
    record Drained(long writesCompleted) implements CoreEvent { }


    // ---- crash-safe index and data validation ----

    /**
     * Decision: a slot read back from L2 did not match the checksum kept for it (or none was kept); the load fails
     * and the slot's chunk is evicted. {@code slotIndex} is the slot's position in its read, in verification order.
     */
    record ChecksumMismatch(long loadId, long fileOffset, long lengthBytes, int slotIndex) implements CoreEvent { }

    /** Input: the runner opens the index: recover it from the index device, or start a fresh one (format). */
    record IndexOpenRequested(boolean recover) implements CoreEvent { }

    /** Decision: an I/O went to the index device (the metadata log or a checkpoint). */
    record IndexIoSubmitted(long ioId, IoOp op, long offset, long lengthBytes) implements CoreEvent { }

    /** Input: the index device completed an I/O with {@code result} (bytes, or a negative errno). */
    record IndexIoCompleted(long ioId, IoOp op, long offset, long result) implements CoreEvent { }

    /** Decision: a checkpoint of {@code chunks} committed chunks was made durable; the log restarts at {@code nextSeq}. */
    record IndexCheckpointed(long epoch, long nextSeq, int chunks, long bytes) implements CoreEvent { }

    /**
     * Decision: the index was opened: {@code recovered} committed chunks from a checkpoint and {@code records} log
     * records ({@code 0, 0} for a fresh start), {@code bytesRead} read from the index device.
     */
    record IndexOpened(long epoch, boolean recoveredFromDisk, int recovered, long records, long bytesRead)
        implements CoreEvent { }

    /** Input: the runner shuts the store down: drain, flush the data device, make the index log durable. */
    record ShutdownRequested() implements CoreEvent { }

    /** Decision: the shutdown finished; {@code durable} when every write and every index record is durable. */
    record ShutdownCompleted(boolean durable) implements CoreEvent { }

    /** Decision: a committed chunk was rebuilt from the index device when the index was recovered (oldest first). */
    record ChunkRecovered(PrefixKey key, int modelId, long allocationId, int startSlot, int slotCount)
        implements CoreEvent { }

    /** Decision: the index device failed; index persistence stops until a checkpoint succeeds. */
    record IndexFailed(long result) implements CoreEvent { }

    /** Decision: durable commits wait for the L2 writes of their ranges, then a flush of the data device. */
    record CommitPending(long commitId, int allocations, int waitingWrites) implements CoreEvent { }

    /** Decision: a durable commit could not be made durable; its allocations were evicted (never visible). */
    record CommitRefused(long commitId, PrefixKey key, long allocationId) implements CoreEvent { }

    // ---- driver annotations (workload drivers; not inputs of the core, not compared by replay) ----

    /** Driver: a workload phase began (for example "cold" or "warm"). */
    record PhaseStarted(String phase) implements CoreEvent { }

    /** Driver: a request arrived; {@code cachedBlocks} of its {@code blocks} were found by lookup. */
    record RequestArrived(long requestId, String phase, int blocks, int cachedBlocks) implements CoreEvent { }

    /** Driver: a request finished: {@code latencyNs} from arrival to first token (released or loaded). */
    record RequestFinished(long requestId, String phase, long latencyNs, boolean ok) implements CoreEvent { }

    /** What a record is to replay. */
    enum Kind {
        /** Fed to a fresh core by replay. */
        INPUT,
        /** Made by the core; replay compares it. */
        DECISION,
        /** Written by a workload driver for reports and traces; replay skips it. */
        DRIVER
    }

    /** The kind of a record; an exhaustive switch, so a new record must be classified here. */
    static Kind kindOf(final CoreEvent event) {
        return switch (event) {
            case Lookup x -> Kind.INPUT;
            case AllocateRequested x -> Kind.INPUT;
            case Allocated x -> Kind.DECISION;
            case AllocationSkipped x -> Kind.DECISION;
            case RingWrapped x -> Kind.DECISION;
            case RingEvicted x -> Kind.DECISION;
            case ClaimReleased x -> Kind.INPUT;
            case CommitRequested x -> Kind.DECISION;
            case Committed x -> Kind.DECISION;
            case LateCommit x -> Kind.DECISION;
            case StoreSent x -> Kind.DECISION;
            case StoreReceived x -> Kind.DECISION;
            case SpanRejected x -> Kind.DECISION;
            case SpansCoalesced x -> Kind.DECISION;
            case SliceReserved x -> Kind.DECISION;
            case EntryInserted x -> Kind.DECISION;
            case EntryEvicted x -> Kind.DECISION;
            case SliceFreed x -> Kind.DECISION;
            case MemoryWait x -> Kind.DECISION;
            case Trimmed x -> Kind.DECISION;
            case StoreCompleted x -> Kind.DECISION;
            case BatchSealed x -> Kind.DECISION;
            case IoSubmitted x -> Kind.DECISION;
            case IoCompleted x -> Kind.INPUT;
            case WriteFinished x -> Kind.DECISION;
            case LoadRequested x -> Kind.INPUT;
            case LoadHit x -> Kind.DECISION;
            case LoadGap x -> Kind.DECISION;
            case LoadWaitsForWrite x -> Kind.DECISION;
            case Promoted x -> Kind.DECISION;
            case PromotionDiscarded x -> Kind.DECISION;
            case LoadCompleted x -> Kind.DECISION;
            case LoadFailed x -> Kind.DECISION;
            case SaveQueued x -> Kind.INPUT;
            case BatchSent x -> Kind.DECISION;
            case BatchStaged x -> Kind.DECISION;
            case RequestReleased x -> Kind.DECISION;
            case RequestCommitted x -> Kind.DECISION;
            case DrainRequested x -> Kind.INPUT;
            case Drained x -> Kind.DECISION;
            case ChecksumMismatch x -> Kind.DECISION;
            case IndexOpenRequested x -> Kind.INPUT;
            case IndexIoSubmitted x -> Kind.DECISION;
            case IndexIoCompleted x -> Kind.INPUT;
            case IndexCheckpointed x -> Kind.DECISION;
            case IndexOpened x -> Kind.DECISION;
            case IndexFailed x -> Kind.DECISION;
            case ChunkRecovered x -> Kind.DECISION;
            case ShutdownRequested x -> Kind.INPUT;
            case ShutdownCompleted x -> Kind.DECISION;
            case CommitPending x -> Kind.DECISION;
            case CommitRefused x -> Kind.DECISION;
            case PhaseStarted x -> Kind.DRIVER;
            case RequestArrived x -> Kind.DRIVER;
            case RequestFinished x -> Kind.DRIVER;
        };
    }

    /** True for the records a replay feeds to a fresh core. */
    static boolean isInput(final CoreEvent event) {
        return kindOf(event) == Kind.INPUT;
    }
}
