package dev.kvtier.journal.codec;

import dev.kvtier.core.event.CoreEvent;

import static dev.kvtier.journal.codec.EventLayout.*;

/**
 * The one exhaustive switch that names, in order, the fields of every {@link CoreEvent} record. The order is the
 * record's component order (a test checks it against the record components), and it is the canonical encoding order
 * of {@link EventCodec} and the field order of a dump. A new record fails to compile here until it is given a tag
 * in {@link EventLayout} and its fields here.
 *
 * <p>Each case calls a method of its own with its record's fields. One method holding every case's field chain was
 * what the JIT compiled longest in a cold run of pr90-evict: C2 took about 0.6 s of compile-thread time on it (two
 * compilations, 61 KB of code), against 0.05 s for the switch alone now; a case's chain is compiled, and inlined
 * where it is hot, on its own.
 */
public final class EventFields {

    private EventFields() {}

    /** Visits {@code event}'s tag and every field, in canonical order. */
    public static void visit(final CoreEvent event, final FieldVisitor v) {
        switch (event) {
            case CoreEvent.Lookup x -> lookup(x, v);
            case CoreEvent.AllocateRequested x -> allocateRequested(x, v);
            case CoreEvent.Allocated x -> allocated(x, v);
            case CoreEvent.AllocationSkipped x -> allocationSkipped(x, v);
            case CoreEvent.RingWrapped x -> ringWrapped(x, v);
            case CoreEvent.RingEvicted x -> ringEvicted(x, v);
            case CoreEvent.ClaimReleased x -> claimReleased(x, v);
            case CoreEvent.CommitRequested x -> commitRequested(x, v);
            case CoreEvent.Committed x -> committed(x, v);
            case CoreEvent.LateCommit x -> lateCommit(x, v);
            case CoreEvent.StoreSent x -> storeSent(x, v);
            case CoreEvent.StoreReceived x -> storeReceived(x, v);
            case CoreEvent.SpanRejected x -> spanRejected(x, v);
            case CoreEvent.SpansCoalesced x -> spansCoalesced(x, v);
            case CoreEvent.SliceReserved x -> sliceReserved(x, v);
            case CoreEvent.EntryInserted x -> entryInserted(x, v);
            case CoreEvent.EntryEvicted x -> entryEvicted(x, v);
            case CoreEvent.SliceFreed x -> sliceFreed(x, v);
            case CoreEvent.MemoryWait x -> memoryWait(x, v);
            case CoreEvent.Trimmed x -> trimmed(x, v);
            case CoreEvent.StoreCompleted x -> storeCompleted(x, v);
            case CoreEvent.BatchSealed x -> batchSealed(x, v);
            case CoreEvent.IoSubmitted x -> ioSubmitted(x, v);
            case CoreEvent.IoCompleted x -> ioCompleted(x, v);
            case CoreEvent.WriteFinished x -> writeFinished(x, v);
            case CoreEvent.LoadRequested x -> loadRequested(x, v);
            case CoreEvent.LoadHit x -> loadHit(x, v);
            case CoreEvent.LoadGap x -> loadGap(x, v);
            case CoreEvent.LoadWaitsForWrite x -> loadWaitsForWrite(x, v);
            case CoreEvent.Promoted x -> promoted(x, v);
            case CoreEvent.PromotionDiscarded x -> promotionDiscarded(x, v);
            case CoreEvent.LoadCompleted x -> loadCompleted(x, v);
            case CoreEvent.LoadFailed x -> loadFailed(x, v);
            case CoreEvent.SaveQueued x -> saveQueued(x, v);
            case CoreEvent.BatchSent x -> batchSent(x, v);
            case CoreEvent.BatchStaged x -> batchStaged(x, v);
            case CoreEvent.RequestReleased x -> requestReleased(x, v);
            case CoreEvent.RequestCommitted x -> requestCommitted(x, v);
            case CoreEvent.DrainRequested x -> v.begin(DRAIN_REQUESTED, "DrainRequested");
            case CoreEvent.Drained x -> drained(x, v);
            case CoreEvent.PhaseStarted x -> phaseStarted(x, v);
            case CoreEvent.RequestArrived x -> requestArrived(x, v);
            case CoreEvent.RequestFinished x -> requestFinished(x, v);
            case CoreEvent.ChecksumMismatch x -> checksumMismatch(x, v);
            case CoreEvent.IndexOpenRequested x -> indexOpenRequested(x, v);
            case CoreEvent.IndexIoSubmitted x -> indexIoSubmitted(x, v);
            case CoreEvent.IndexIoCompleted x -> indexIoCompleted(x, v);
            case CoreEvent.IndexCheckpointed x -> indexCheckpointed(x, v);
            case CoreEvent.IndexOpened x -> indexOpened(x, v);
            case CoreEvent.IndexFailed x -> indexFailed(x, v);
            case CoreEvent.CommitPending x -> commitPending(x, v);
            case CoreEvent.ChunkRecovered x -> chunkRecovered(x, v);
            case CoreEvent.ShutdownRequested x -> v.begin(SHUTDOWN_REQUESTED, "ShutdownRequested");
            case CoreEvent.ShutdownCompleted x -> shutdownCompleted(x, v);
            case CoreEvent.CommitRefused x -> commitRefused(x, v);
            case CoreEvent.Delivered x -> delivered(x, v);
            case CoreEvent.StepCompleted x -> stepCompleted(x, v);
            case CoreEvent.LoadWaited x -> loadWaited(x, v);
        }
    }

    private static void lookup(final CoreEvent.Lookup x, final FieldVisitor v) {
        v.begin(LOOKUP, "Lookup").i32("modelId", x.modelId()).keys("keys", x.keys())
            .i32("prefixLength", x.prefixLength());
    }

    private static void allocateRequested(final CoreEvent.AllocateRequested x, final FieldVisitor v) {
        v.begin(ALLOCATE_REQUESTED, "AllocateRequested")
            .i64("requestId", x.requestId()).i32("modelId", x.modelId()).keys("keys", x.keys())
            .i32("slotsPerKey", x.slotsPerKey());
    }

    private static void allocated(final CoreEvent.Allocated x, final FieldVisitor v) {
        v.begin(ALLOCATED, "Allocated").i64("requestId", x.requestId()).key("key", x.key())
            .i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
            .i32("slotCount", x.slotCount());
    }

    private static void allocationSkipped(final CoreEvent.AllocationSkipped x, final FieldVisitor v) {
        v.begin(ALLOCATION_SKIPPED, "AllocationSkipped")
            .i64("requestId", x.requestId()).key("key", x.key()).enumValue("reason", x.reason());
    }

    private static void ringWrapped(final CoreEvent.RingWrapped x, final FieldVisitor v) {
        v.begin(RING_WRAPPED, "RingWrapped").i32("fromSlot", x.fromSlot())
            .i32("slotCount", x.slotCount());
    }

    private static void ringEvicted(final CoreEvent.RingEvicted x, final FieldVisitor v) {
        v.begin(RING_EVICTED, "RingEvicted").key("key", x.key())
            .i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
            .i32("slotCount", x.slotCount()).bool("committed", x.committed()).i32("leases", x.leases())
            .enumValue("reason", x.reason());
    }

    private static void claimReleased(final CoreEvent.ClaimReleased x, final FieldVisitor v) {
        v.begin(CLAIM_RELEASED, "ClaimReleased").ref("ref", x.ref())
            .bool("released", x.released());
    }

    private static void commitRequested(final CoreEvent.CommitRequested x, final FieldVisitor v) {
        v.begin(COMMIT_REQUESTED, "CommitRequested").refs("refs", x.refs());
    }

    private static void committed(final CoreEvent.Committed x, final FieldVisitor v) {
        v.begin(COMMITTED, "Committed").key("key", x.key())
            .i64("allocationId", x.allocationId());
    }

    private static void lateCommit(final CoreEvent.LateCommit x, final FieldVisitor v) {
        v.begin(LATE_COMMIT, "LateCommit").key("key", x.key())
            .i64("allocationId", x.allocationId());
    }

    private static void storeSent(final CoreEvent.StoreSent x, final FieldVisitor v) {
        v.begin(STORE_SENT, "StoreSent").i64("storeId", x.storeId())
            .pieces("spans", x.spans());
    }

    private static void storeReceived(final CoreEvent.StoreReceived x, final FieldVisitor v) {
        v.begin(STORE_RECEIVED, "StoreReceived").i64("storeId", x.storeId())
            .i32("spanCount", x.spanCount()).i64("bytes", x.bytes());
    }

    private static void spanRejected(final CoreEvent.SpanRejected x, final FieldVisitor v) {
        v.begin(SPAN_REJECTED, "SpanRejected").i64("storeId", x.storeId())
            .key("key", x.key()).i64("allocationId", x.allocationId()).i64("fileOffset", x.fileOffset())
            .i64("lengthBytes", x.lengthBytes()).enumValue("reason", x.reason());
    }

    private static void spansCoalesced(final CoreEvent.SpansCoalesced x, final FieldVisitor v) {
        v.begin(SPANS_COALESCED, "SpansCoalesced").i64("storeId", x.storeId())
            .i32("spansIn", x.spansIn()).i32("spansOut", x.spansOut());
    }

    private static void sliceReserved(final CoreEvent.SliceReserved x, final FieldVisitor v) {
        v.begin(SLICE_RESERVED, "SliceReserved").i64("opId", x.opId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
            .i64("poolOffset", x.poolOffset());
    }

    private static void entryInserted(final CoreEvent.EntryInserted x, final FieldVisitor v) {
        v.begin(ENTRY_INSERTED, "EntryInserted").i64("opId", x.opId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
            .i64("poolOffset", x.poolOffset()).i64("srcOffset", x.srcOffset()).bool("headroom", x.headroom())
            .i32("prefixIndex", x.prefixIndex());
    }

    private static void entryEvicted(final CoreEvent.EntryEvicted x, final FieldVisitor v) {
        v.begin(ENTRY_EVICTED, "EntryEvicted").i64("fileOffset", x.fileOffset())
            .i64("lengthBytes", x.lengthBytes()).i64("poolOffset", x.poolOffset()).bool("headroom", x.headroom())
            .bool("pendingWrite", x.pendingWrite()).enumValue("reason", x.reason());
    }

    private static void sliceFreed(final CoreEvent.SliceFreed x, final FieldVisitor v) {
        v.begin(SLICE_FREED, "SliceFreed").i64("poolOffset", x.poolOffset())
            .i64("lengthBytes", x.lengthBytes());
    }

    private static void memoryWait(final CoreEvent.MemoryWait x, final FieldVisitor v) {
        v.begin(MEMORY_WAIT, "MemoryWait").i64("opId", x.opId())
            .i64("neededBytes", x.neededBytes());
    }

    private static void trimmed(final CoreEvent.Trimmed x, final FieldVisitor v) {
        v.begin(TRIMMED, "Trimmed").i64("storeId", x.storeId())
            .i64("targetBytes", x.targetBytes()).i64("residentBefore", x.residentBefore())
            .i64("residentAfter", x.residentAfter()).i32("evicted", x.evicted());
    }

    private static void storeCompleted(final CoreEvent.StoreCompleted x, final FieldVisitor v) {
        v.begin(STORE_COMPLETED, "StoreCompleted").i64("storeId", x.storeId())
            .i32("acceptedSpans", x.acceptedSpans()).i32("rejectedSpans", x.rejectedSpans())
            .i64("bytes", x.bytes());
    }

    private static void batchSealed(final CoreEvent.BatchSealed x, final FieldVisitor v) {
        v.begin(BATCH_SEALED, "BatchSealed").i64("batchId", x.batchId())
            .i64("storeId", x.storeId()).i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
            .i32("entries", x.entries()).i32("dependsOn", x.dependsOn()).enumValue("reason", x.reason());
    }

    private static void ioSubmitted(final CoreEvent.IoSubmitted x, final FieldVisitor v) {
        v.begin(IO_SUBMITTED, "IoSubmitted").i64("ioId", x.ioId()).enumValue("op", x.op())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes()).i32("segments", x.segments());
    }

    private static void ioCompleted(final CoreEvent.IoCompleted x, final FieldVisitor v) {
        v.begin(IO_COMPLETED, "IoCompleted").i64("ioId", x.ioId()).enumValue("op", x.op())
            .i64("fileOffset", x.fileOffset()).i64("result", x.result());
    }

    private static void writeFinished(final CoreEvent.WriteFinished x, final FieldVisitor v) {
        v.begin(WRITE_FINISHED, "WriteFinished").i64("batchId", x.batchId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes()).bool("ok", x.ok());
    }

    private static void loadRequested(final CoreEvent.LoadRequested x, final FieldVisitor v) {
        v.begin(LOAD_REQUESTED, "LoadRequested").i64("loadId", x.loadId())
            .ranges("ranges", x.ranges()).i64("bytes", x.bytes());
    }

    private static void loadHit(final CoreEvent.LoadHit x, final FieldVisitor v) {
        v.begin(LOAD_HIT, "LoadHit").i64("loadId", x.loadId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
    }

    private static void loadGap(final CoreEvent.LoadGap x, final FieldVisitor v) {
        v.begin(LOAD_GAP, "LoadGap").i64("loadId", x.loadId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
    }

    private static void loadWaitsForWrite(final CoreEvent.LoadWaitsForWrite x, final FieldVisitor v) {
        v.begin(LOAD_WAITS_FOR_WRITE, "LoadWaitsForWrite").i64("loadId", x.loadId())
            .i64("batchId", x.batchId());
    }

    private static void promoted(final CoreEvent.Promoted x, final FieldVisitor v) {
        v.begin(PROMOTED, "Promoted").i64("loadId", x.loadId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes());
    }

    private static void promotionDiscarded(final CoreEvent.PromotionDiscarded x, final FieldVisitor v) {
        v.begin(PROMOTION_DISCARDED, "PromotionDiscarded").i64("loadId", x.loadId())
            .i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
            .enumValue("reason", x.reason());
    }

    private static void loadCompleted(final CoreEvent.LoadCompleted x, final FieldVisitor v) {
        v.begin(LOAD_COMPLETED, "LoadCompleted").i64("loadId", x.loadId())
            .i64("bytes", x.bytes()).i64("hitBytes", x.hitBytes());
    }

    private static void loadFailed(final CoreEvent.LoadFailed x, final FieldVisitor v) {
        v.begin(LOAD_FAILED, "LoadFailed").i64("loadId", x.loadId())
            .enumValue("reason", x.reason());
    }

    private static void saveQueued(final CoreEvent.SaveQueued x, final FieldVisitor v) {
        v.begin(SAVE_QUEUED, "SaveQueued").i64("requestId", x.requestId())
            .specs("specs", x.specs()).i32("batches", x.batches()).i64("bytes", x.bytes());
    }

    private static void batchSent(final CoreEvent.BatchSent x, final FieldVisitor v) {
        v.begin(BATCH_SENT, "BatchSent").i64("requestId", x.requestId())
            .i32("batchIndex", x.batchIndex()).i64("storeId", x.storeId());
    }

    private static void batchStaged(final CoreEvent.BatchStaged x, final FieldVisitor v) {
        v.begin(BATCH_STAGED, "BatchStaged").i64("requestId", x.requestId())
            .i32("batchIndex", x.batchIndex()).i32("slots", x.slots()).i64("stagingOffset", x.stagingOffset());
    }

    private static void requestReleased(final CoreEvent.RequestReleased x, final FieldVisitor v) {
        v.begin(REQUEST_RELEASED, "RequestReleased").i64("requestId", x.requestId());
    }

    private static void requestCommitted(final CoreEvent.RequestCommitted x, final FieldVisitor v) {
        v.begin(REQUEST_COMMITTED, "RequestCommitted").i64("requestId", x.requestId())
            .i32("acceptedKeys", x.acceptedKeys()).i32("rejectedKeys", x.rejectedKeys());
    }

    private static void drained(final CoreEvent.Drained x, final FieldVisitor v) {
        v.begin(DRAINED, "Drained").i64("writesCompleted", x.writesCompleted());
    }

    private static void phaseStarted(final CoreEvent.PhaseStarted x, final FieldVisitor v) {
        v.begin(PHASE_STARTED, "PhaseStarted").text("phase", x.phase());
    }

    private static void requestArrived(final CoreEvent.RequestArrived x, final FieldVisitor v) {
        v.begin(REQUEST_ARRIVED, "RequestArrived").i64("requestId", x.requestId())
            .text("phase", x.phase()).i32("blocks", x.blocks()).i32("cachedBlocks", x.cachedBlocks());
    }

    private static void requestFinished(final CoreEvent.RequestFinished x, final FieldVisitor v) {
        v.begin(REQUEST_FINISHED, "RequestFinished").i64("requestId", x.requestId())
            .text("phase", x.phase()).i64("latencyNs", x.latencyNs()).bool("ok", x.ok());
    }

    private static void checksumMismatch(final CoreEvent.ChecksumMismatch x, final FieldVisitor v) {
        v.begin(CHECKSUM_MISMATCH, "ChecksumMismatch")
            .i64("loadId", x.loadId()).i64("fileOffset", x.fileOffset()).i64("lengthBytes", x.lengthBytes())
            .i32("slotIndex", x.slotIndex());
    }

    private static void indexOpenRequested(final CoreEvent.IndexOpenRequested x, final FieldVisitor v) {
        v.begin(INDEX_OPEN_REQUESTED, "IndexOpenRequested")
            .bool("recover", x.recover());
    }

    private static void indexIoSubmitted(final CoreEvent.IndexIoSubmitted x, final FieldVisitor v) {
        v.begin(INDEX_IO_SUBMITTED, "IndexIoSubmitted").i64("ioId", x.ioId())
            .enumValue("op", x.op()).i64("offset", x.offset()).i64("lengthBytes", x.lengthBytes());
    }

    private static void indexIoCompleted(final CoreEvent.IndexIoCompleted x, final FieldVisitor v) {
        v.begin(INDEX_IO_COMPLETED, "IndexIoCompleted").i64("ioId", x.ioId())
            .enumValue("op", x.op()).i64("offset", x.offset()).i64("result", x.result());
    }

    private static void indexCheckpointed(final CoreEvent.IndexCheckpointed x, final FieldVisitor v) {
        v.begin(INDEX_CHECKPOINTED, "IndexCheckpointed")
            .i64("epoch", x.epoch()).i64("nextSeq", x.nextSeq()).i32("chunks", x.chunks()).i64("bytes", x.bytes());
    }

    private static void indexOpened(final CoreEvent.IndexOpened x, final FieldVisitor v) {
        v.begin(INDEX_OPENED, "IndexOpened").i64("epoch", x.epoch())
            .bool("recoveredFromDisk", x.recoveredFromDisk()).i32("recovered", x.recovered())
            .i64("records", x.records()).i64("bytesRead", x.bytesRead());
    }

    private static void indexFailed(final CoreEvent.IndexFailed x, final FieldVisitor v) {
        v.begin(INDEX_FAILED, "IndexFailed").i64("result", x.result());
    }

    private static void commitPending(final CoreEvent.CommitPending x, final FieldVisitor v) {
        v.begin(COMMIT_PENDING, "CommitPending").i64("commitId", x.commitId())
            .i32("allocations", x.allocations()).i32("waitingWrites", x.waitingWrites());
    }

    private static void chunkRecovered(final CoreEvent.ChunkRecovered x, final FieldVisitor v) {
        v.begin(CHUNK_RECOVERED, "ChunkRecovered").key("key", x.key())
            .i32("modelId", x.modelId()).i64("allocationId", x.allocationId()).i32("startSlot", x.startSlot())
            .i32("slotCount", x.slotCount());
    }

    private static void shutdownCompleted(final CoreEvent.ShutdownCompleted x, final FieldVisitor v) {
        v.begin(SHUTDOWN_COMPLETED, "ShutdownCompleted")
            .bool("durable", x.durable());
    }

    private static void commitRefused(final CoreEvent.CommitRefused x, final FieldVisitor v) {
        v.begin(COMMIT_REFUSED, "CommitRefused").i64("commitId", x.commitId())
            .key("key", x.key()).i64("allocationId", x.allocationId());
    }

    private static void delivered(final CoreEvent.Delivered x, final FieldVisitor v) {
        v.begin(DELIVERED, "Delivered").i64("callId", x.callId())
            .bool("toServer", x.toServer());
    }

    private static void stepCompleted(final CoreEvent.StepCompleted x, final FieldVisitor v) {
        v.begin(STEP_COMPLETED, "StepCompleted").i64("step", x.step())
            .text("phase", x.phase()).i32("requests", x.requests()).i64("tokens", x.tokens())
            .i64("scheduleNs", x.scheduleNs()).i64("forwardNs", x.forwardNs()).i64("finishNs", x.finishNs())
            .i64("durationNs", x.durationNs());
    }

    private static void loadWaited(final CoreEvent.LoadWaited x, final FieldVisitor v) {
        v.begin(LOAD_WAITED, "LoadWaited").i64("requestId", x.requestId())
            .text("phase", x.phase()).i64("waitNs", x.waitNs()).bool("ok", x.ok());
    }
}
