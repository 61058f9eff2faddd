package dev.kvtier.journal.codec;

import dev.kvtier.core.event.CoreEvent.AllocateRequested;
import dev.kvtier.core.event.CoreEvent.Allocated;
import dev.kvtier.core.event.CoreEvent.AllocationSkipped;
import dev.kvtier.core.event.CoreEvent.BatchSealed;
import dev.kvtier.core.event.CoreEvent.BatchSent;
import dev.kvtier.core.event.CoreEvent.BatchStaged;
import dev.kvtier.core.event.CoreEvent.ClaimReleased;
import dev.kvtier.core.event.CoreEvent.CommitRequested;
import dev.kvtier.core.event.CoreEvent.Committed;
import dev.kvtier.core.event.CoreEvent.DrainRequested;
import dev.kvtier.core.event.CoreEvent.Drained;
import dev.kvtier.core.event.CoreEvent.EntryEvicted;
import dev.kvtier.core.event.CoreEvent.EntryInserted;
import dev.kvtier.core.event.CoreEvent.IoCompleted;
import dev.kvtier.core.event.CoreEvent.IoSubmitted;
import dev.kvtier.core.event.CoreEvent.LateCommit;
import dev.kvtier.core.event.CoreEvent.LoadCompleted;
import dev.kvtier.core.event.CoreEvent.LoadFailed;
import dev.kvtier.core.event.CoreEvent.LoadGap;
import dev.kvtier.core.event.CoreEvent.LoadHit;
import dev.kvtier.core.event.CoreEvent.LoadRequested;
import dev.kvtier.core.event.CoreEvent.LoadWaitsForWrite;
import dev.kvtier.core.event.CoreEvent.Lookup;
import dev.kvtier.core.event.CoreEvent.MemoryWait;
import dev.kvtier.core.event.CoreEvent.PhaseStarted;
import dev.kvtier.core.event.CoreEvent.Promoted;
import dev.kvtier.core.event.CoreEvent.PromotionDiscarded;
import dev.kvtier.core.event.CoreEvent.RequestArrived;
import dev.kvtier.core.event.CoreEvent.RequestCommitted;
import dev.kvtier.core.event.CoreEvent.RequestFinished;
import dev.kvtier.core.event.CoreEvent.RequestReleased;
import dev.kvtier.core.event.CoreEvent.RingEvicted;
import dev.kvtier.core.event.CoreEvent.RingWrapped;
import dev.kvtier.core.event.CoreEvent.SaveQueued;
import dev.kvtier.core.event.CoreEvent.SliceFreed;
import dev.kvtier.core.event.CoreEvent.SliceReserved;
import dev.kvtier.core.event.CoreEvent.SpanRejected;
import dev.kvtier.core.event.CoreEvent.SpansCoalesced;
import dev.kvtier.core.event.CoreEvent.StoreCompleted;
import dev.kvtier.core.event.CoreEvent.StoreReceived;
import dev.kvtier.core.event.CoreEvent.StoreSent;
import dev.kvtier.core.event.CoreEvent.Trimmed;
import dev.kvtier.core.event.CoreEvent.WriteFinished;
import dev.kvtier.core.event.CoreEvent;

import static dev.kvtier.journal.codec.EventLayout.*;

/**
 * The one exhaustive switch that names, in order, the fields of every {@link CoreEvent} record. The order is the
 * record's component order (a test checks it against the record components), and it is the canonical encoding order
 * of {@link EventCodec} and the field order of a dump. A new record fails to compile here until it is given a tag
 * in {@link EventLayout} and its fields here.
 *
 * <p>{@link #visit} is longer than the 70-line guide (STYLE rule 19): one case per record, and splitting the switch
 * would need a {@code default}, which rule 14 forbids.
 */
public final class EventFields {

    private EventFields() {}

    /** Visits {@code event}'s tag and every field, in canonical order. */
    public static void visit(final CoreEvent event, final FieldVisitor v) {
        switch (event) {
            case Lookup x -> v.begin(LOOKUP, "Lookup").i32("modelId", x.modelId()).keys("keys", x.keys())
                .i32("prefixLength", x.prefixLength());
            case AllocateRequested x -> v.begin(ALLOCATE_REQUESTED, "AllocateRequested")
                .i64("requestId", x.requestId()).i32("modelId", x.modelId()).keys("keys", x.keys())
                .i32("slotsPerKey", x.slotsPerKey());
            case Allocated x -> v.begin(ALLOCATED, "Allocated").i64("requestId", x.requestId()).key("key", x.key())
                .i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
                .i32("slotCount", x.slotCount());
            case AllocationSkipped x -> v.begin(ALLOCATION_SKIPPED, "AllocationSkipped")
                .i64("requestId", x.requestId()).key("key", x.key()).enumValue("reason", x.reason());
            case RingWrapped x -> v.begin(RING_WRAPPED, "RingWrapped").i32("fromSlot", x.fromSlot())
                .i32("slotCount", x.slotCount());
            case RingEvicted x -> v.begin(RING_EVICTED, "RingEvicted").key("key", x.key())
                .i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
                .i32("slotCount", x.slotCount()).bool("committed", x.committed()).i32("leases", x.leases())
                .enumValue("reason", x.reason());
            case ClaimReleased x -> v.begin(CLAIM_RELEASED, "ClaimReleased").ref("ref", x.ref())
                .bool("released", x.released());
            case CommitRequested x -> v.begin(COMMIT_REQUESTED, "CommitRequested").refs("refs", x.refs());
            case Committed x -> v.begin(COMMITTED, "Committed").key("key", x.key())
                .i64("allocationId", x.allocationId());
            case LateCommit x -> v.begin(LATE_COMMIT, "LateCommit").key("key", x.key())
                .i64("allocationId", x.allocationId());
            case StoreSent x -> v.begin(STORE_SENT, "StoreSent").i64("storeId", x.storeId())
                .pieces("spans", x.spans());
            case StoreReceived x -> v.begin(STORE_RECEIVED, "StoreReceived").i64("storeId", x.storeId())
                .i32("spanCount", x.spanCount()).i64("bytes", x.bytes());
            case SpanRejected x -> v.begin(SPAN_REJECTED, "SpanRejected").i64("storeId", x.storeId())
                .key("key", x.key()).i64("allocationId", x.allocationId()).i64("fileOffset", x.fileOffset())
                .i64("lengthBytes", x.lengthBytes()).enumValue("reason", x.reason());
            case SpansCoalesced x -> v.begin(SPANS_COALESCED, "SpansCoalesced").i64("storeId", x.storeId())
                .i32("spansIn", x.spansIn()).i32("spansOut", x.spansOut());
            case SliceReserved x -> v.begin(SLICE_RESERVED, "SliceReserved").i64("opId", x.opId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
                .i64("poolOffset", x.poolOffset());
            case EntryInserted x -> v.begin(ENTRY_INSERTED, "EntryInserted").i64("opId", x.opId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
                .i64("poolOffset", x.poolOffset()).i64("srcOffset", x.srcOffset()).bool("headroom", x.headroom())
                .i32("prefixIndex", x.prefixIndex());
            case EntryEvicted x -> v.begin(ENTRY_EVICTED, "EntryEvicted").i64("fileOffset", x.fileOffset())
                .i64("lengthBytes", x.lengthBytes()).i64("poolOffset", x.poolOffset()).bool("headroom", x.headroom())
                .bool("pendingWrite", x.pendingWrite()).enumValue("reason", x.reason());
            case SliceFreed x -> v.begin(SLICE_FREED, "SliceFreed").i64("poolOffset", x.poolOffset())
                .i64("lengthBytes", x.lengthBytes());
            case MemoryWait x -> v.begin(MEMORY_WAIT, "MemoryWait").i64("opId", x.opId())
                .i64("neededBytes", x.neededBytes());
            case Trimmed x -> v.begin(TRIMMED, "Trimmed").i64("storeId", x.storeId())
                .i64("targetBytes", x.targetBytes()).i64("residentBefore", x.residentBefore())
                .i64("residentAfter", x.residentAfter()).i32("evicted", x.evicted());
            case StoreCompleted x -> v.begin(STORE_COMPLETED, "StoreCompleted").i64("storeId", x.storeId())
                .i32("acceptedSpans", x.acceptedSpans()).i32("rejectedSpans", x.rejectedSpans())
                .i64("bytes", x.bytes());
            case BatchSealed x -> v.begin(BATCH_SEALED, "BatchSealed").i64("batchId", x.batchId())
                .i64("storeId", x.storeId()).i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
                .i32("entries", x.entries()).i32("dependsOn", x.dependsOn()).enumValue("reason", x.reason());
            case IoSubmitted x -> v.begin(IO_SUBMITTED, "IoSubmitted").i64("ioId", x.ioId()).enumValue("op", x.op())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes()).i32("segments", x.segments());
            case IoCompleted x -> v.begin(IO_COMPLETED, "IoCompleted").i64("ioId", x.ioId()).enumValue("op", x.op())
                .i64("fileOffset", x.fileOffset()).i64("result", x.result());
            case WriteFinished x -> v.begin(WRITE_FINISHED, "WriteFinished").i64("batchId", x.batchId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes()).bool("ok", x.ok());
            case LoadRequested x -> v.begin(LOAD_REQUESTED, "LoadRequested").i64("loadId", x.loadId())
                .ranges("ranges", x.ranges()).i64("bytes", x.bytes());
            case LoadHit x -> v.begin(LOAD_HIT, "LoadHit").i64("loadId", x.loadId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
            case LoadGap x -> v.begin(LOAD_GAP, "LoadGap").i64("loadId", x.loadId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
            case LoadWaitsForWrite x -> v.begin(LOAD_WAITS_FOR_WRITE, "LoadWaitsForWrite").i64("loadId", x.loadId())
                .i64("batchId", x.batchId());
            case Promoted x -> v.begin(PROMOTED, "Promoted").i64("loadId", x.loadId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
            case PromotionDiscarded x -> v.begin(PROMOTION_DISCARDED, "PromotionDiscarded").i64("loadId", x.loadId())
                .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
                .enumValue("reason", x.reason());
            case LoadCompleted x -> v.begin(LOAD_COMPLETED, "LoadCompleted").i64("loadId", x.loadId())
                .i64("bytes", x.bytes()).i64("hitBytes", x.hitBytes());
            case LoadFailed x -> v.begin(LOAD_FAILED, "LoadFailed").i64("loadId", x.loadId())
                .enumValue("reason", x.reason());
            case SaveQueued x -> v.begin(SAVE_QUEUED, "SaveQueued").i64("requestId", x.requestId())
                .specs("specs", x.specs()).i32("batches", x.batches()).i64("bytes", x.bytes());
            case BatchSent x -> v.begin(BATCH_SENT, "BatchSent").i64("requestId", x.requestId())
                .i32("batchIndex", x.batchIndex()).i64("storeId", x.storeId());
            case BatchStaged x -> v.begin(BATCH_STAGED, "BatchStaged").i64("requestId", x.requestId())
                .i32("batchIndex", x.batchIndex()).i32("slots", x.slots()).i64("stagingOffset", x.stagingOffset());
            case RequestReleased x -> v.begin(REQUEST_RELEASED, "RequestReleased").i64("requestId", x.requestId());
            case RequestCommitted x -> v.begin(REQUEST_COMMITTED, "RequestCommitted").i64("requestId", x.requestId())
                .i32("acceptedKeys", x.acceptedKeys()).i32("rejectedKeys", x.rejectedKeys());
            case DrainRequested x -> v.begin(DRAIN_REQUESTED, "DrainRequested");
            case Drained x -> v.begin(DRAINED, "Drained").i64("writesCompleted", x.writesCompleted());
            case PhaseStarted x -> v.begin(PHASE_STARTED, "PhaseStarted").text("phase", x.phase());
            case RequestArrived x -> v.begin(REQUEST_ARRIVED, "RequestArrived").i64("requestId", x.requestId())
                .text("phase", x.phase()).i32("blocks", x.blocks()).i32("cachedBlocks", x.cachedBlocks());
            case RequestFinished x -> v.begin(REQUEST_FINISHED, "RequestFinished").i64("requestId", x.requestId())
                .text("phase", x.phase()).i64("latencyNs", x.latencyNs()).bool("ok", x.ok());
            case CoreEvent.ChecksumMismatch x -> v.begin(CHECKSUM_MISMATCH, "ChecksumMismatch")
                .i64("loadId", x.loadId()).i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
                .i32("slotIndex", x.slotIndex());
            case CoreEvent.IndexOpenRequested x -> v.begin(INDEX_OPEN_REQUESTED, "IndexOpenRequested")
                .bool("recover", x.recover());
            case CoreEvent.IndexIoSubmitted x -> v.begin(INDEX_IO_SUBMITTED, "IndexIoSubmitted").i64("ioId", x.ioId())
                .enumValue("op", x.op()).i64("offset", x.offset()).i64("lengthBytes", x.lengthBytes());
            case CoreEvent.IndexIoCompleted x -> v.begin(INDEX_IO_COMPLETED, "IndexIoCompleted").i64("ioId", x.ioId())
                .enumValue("op", x.op()).i64("offset", x.offset()).i64("result", x.result());
            case CoreEvent.IndexCheckpointed x -> v.begin(INDEX_CHECKPOINTED, "IndexCheckpointed")
                .i64("epoch", x.epoch()).i64("nextSeq", x.nextSeq()).i32("chunks", x.chunks()).i64("bytes", x.bytes());
            case CoreEvent.IndexOpened x -> v.begin(INDEX_OPENED, "IndexOpened").i64("epoch", x.epoch())
                .bool("recoveredFromDisk", x.recoveredFromDisk()).i32("recovered", x.recovered())
                .i64("records", x.records()).i64("bytesRead", x.bytesRead());
            case CoreEvent.IndexFailed x -> v.begin(INDEX_FAILED, "IndexFailed").i64("result", x.result());
            case CoreEvent.CommitPending x -> v.begin(COMMIT_PENDING, "CommitPending").i64("commitId", x.commitId())
                .i32("allocations", x.allocations()).i32("waitingWrites", x.waitingWrites());
            case CoreEvent.ChunkRecovered x -> v.begin(CHUNK_RECOVERED, "ChunkRecovered").key("key", x.key())
                .i32("modelId", x.modelId()).i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
                .i32("slotCount", x.slotCount());
            case CoreEvent.ShutdownRequested x -> v.begin(SHUTDOWN_REQUESTED, "ShutdownRequested");
            case CoreEvent.ShutdownCompleted x -> v.begin(SHUTDOWN_COMPLETED, "ShutdownCompleted")
                .bool("durable", x.durable());
            case CoreEvent.CommitRefused x -> v.begin(COMMIT_REFUSED, "CommitRefused").i64("commitId", x.commitId())
                .key("key", x.key()).i64("allocationId", x.allocationId());
            case CoreEvent.Delivered x -> v.begin(DELIVERED, "Delivered").i64("callId", x.callId())
                .bool("toServer", x.toServer());
            case CoreEvent.StepCompleted x -> v.begin(STEP_COMPLETED, "StepCompleted").i64("step", x.step())
                .text("phase", x.phase()).i32("requests", x.requests()).i64("tokens", x.tokens())
                .i64("scheduleNs", x.scheduleNs()).i64("forwardNs", x.forwardNs()).i64("finishNs", x.finishNs())
                .i64("durationNs", x.durationNs());
            case CoreEvent.LoadWaited x -> v.begin(LOAD_WAITED, "LoadWaited").i64("requestId", x.requestId())
                .text("phase", x.phase()).i64("waitNs", x.waitNs()).bool("ok", x.ok());
        }
    }
}
