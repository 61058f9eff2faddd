package dev.kvtier.core.client;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l1.L1Pool;
import dev.kvtier.core.l2.AllocationsById;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The client side of the save path (docs/design/STORAGE-CORE.md 4.1 and 4.5). A finished request's store specs are
 * packed into staging batches ({@link StagingBuilder}); each batch is copied from the engine's KV memory into bounded
 * staging memory as soon as staging has room (requests are served first-in, first-out); the request is released once
 * its last batch is staged. A background save queue sends staged batches to the server one at a time (our choice: one
 * store in flight per client, as the reference's single save thread); each acknowledgement frees that batch's
 * staging. After all batches of a request returned, the keys the server accepted are committed. In {@code durable}
 * mode the commit completes later, once durable; an allocation the server could not make durable (refused, or
 * evicted meanwhile) is then reported rejected, not accepted.
 *
 * <p>Staging runs on the client side (the engine's worker), so its copies cost the engine's time, not the server's.
 * Stores and commits reach the server through a {@link ServerTransport}: each is a call queued on the server thread,
 * and its acknowledgement comes back as a reply on the client side. Every delivery starts with a
 * {@link CoreEvent.Delivered} input naming its call id (one sequence for calls and replies), so a journal records
 * where in the server's order each one ran.
 */
public final class KvClient {
    private final CoreConfig config;
    private final Memory memory;
    private final KvServer server;
    private final ServerTransport transport;
    private final EventSink sink;
    private final MemoryRegion staging;
    private final L1Pool stagingSpace;
    private final ArrayDeque<SaveJob> toStage = new ArrayDeque<>();
    private final ArrayDeque<Staged> saveQueue = new ArrayDeque<>();
    private long nextStoreId;
    private long nextCallId;
    private boolean storeInFlight;
    private boolean pumping;

    private static final class SaveJob {
        final long requestId;
        final List<StagingBatch> batches;
        final MemoryRegion kv;
        final SaveListener listener;
        final AllocationsById accepted;
        final AllocationsById rejected = new AllocationsById(0);
        int staged;
        int acked;

        SaveJob(final long requestId, final List<StagingBatch> batches, final MemoryRegion kv,
                final SaveListener listener) {
            this.requestId = requestId;
            this.batches = batches;
            int pieces = 0;
            for (final StagingBatch b : batches) {
                pieces += b.spans().size();
            }
            this.accepted = new AllocationsById(pieces); // at most one allocation a piece
            this.kv = kv;
            this.listener = listener;
        }
    }

    private record Staged(SaveJob job, int batchIndex, long stagingOffset, long bytes) {}

    /**
     * A client whose calls run at once ({@link ServerTransport#DIRECT}).
     *
     * @param storeIdBase first store id this client uses (ids must be unique per server)
     */
    public KvClient(final CoreConfig config, final Memory memory, final KvServer server, final EventSink sink,
                    final long storeIdBase) {
        this(config, memory, server, ServerTransport.DIRECT, sink, storeIdBase);
    }

    /**
     * @param transport   how calls reach the server and replies come back
     * @param storeIdBase first store id this client uses (ids must be unique per server); call ids start there too
     */
    public KvClient(final CoreConfig config, final Memory memory, final KvServer server,
                    final ServerTransport transport, final EventSink sink, final long storeIdBase) {
        this.config = config;
        this.memory = memory;
        this.server = server;
        this.transport = java.util.Objects.requireNonNull(transport, "transport");
        this.sink = sink;
        this.nextCallId = storeIdBase;
        this.staging = memory.allocate("staging", config.stagingPoolBytes());
        this.stagingSpace = new L1Pool(config.stagingPoolBytes());
        this.nextStoreId = storeIdBase;
    }

    /**
     * Queues a finished request's specs; {@code kv} holds the engine's KV blocks (block b at b x slotBytes).
     * An empty spec list is released and committed at once.
     */
    public void save(final long requestId, final List<StoreSpec> specs, final MemoryRegion kv,
                     final SaveListener listener) {
        final List<StagingBatch> batches = StagingBuilder.build(specs, config.slotBytes(),
            config.stagingBatchSlots(), config.stagingLayout());
        long bytes = 0;
        for (final StagingBatch b : batches) {
            bytes += b.blocks().size() * config.slotBytes();
        }
        sink.emit(new CoreEvent.SaveQueued(requestId, specs, batches.size(), bytes));
        final SaveJob job = new SaveJob(requestId, batches, kv, listener);
        if (batches.isEmpty()) {
            sink.emit(new CoreEvent.RequestReleased(requestId));
            listener.released(requestId);
            sink.emit(new CoreEvent.RequestCommitted(requestId, 0, 0));
            listener.committed(requestId, List.of(), List.of());
            return;
        }
        toStage.add(job);
        pump();
    }

    /** Requests waiting for staging room. */
    public int waitingForStaging() {
        return toStage.size();
    }

    /** Staged batches not yet acknowledged by the server (queued or in flight). */
    public int batchesInSaveQueue() {
        return saveQueue.size() + (storeInFlight ? 1 : 0);
    }

    private void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        try {
            boolean progress = true;
            while (progress) {
                progress = stageNext() || sendNext();
            }
        } finally {
            pumping = false;
        }
    }

    private boolean stageNext() {
        final SaveJob job = toStage.peek();
        if (job == null) {
            return false;
        }
        final StagingBatch batch = job.batches.get(job.staged);
        final long bytes = batch.blocks().size() * config.slotBytes();
        final long offset = stagingSpace.allocate(bytes);
        if (offset == L1Pool.NO_SPACE) {
            return false;
        }
        copyBlocks(job.kv, batch.blocks(), offset);
        sink.emit(new CoreEvent.BatchStaged(job.requestId, job.staged, batch.blocks().size(), offset));
        saveQueue.add(new Staged(job, job.staged, offset, bytes));
        job.staged++;
        if (job.staged == job.batches.size()) {
            toStage.poll();
            sink.emit(new CoreEvent.RequestReleased(job.requestId));
            job.listener.released(job.requestId);
        }
        return true;
    }

    /** Copies blocks into staging, one copy per run of consecutive block numbers. */
    private void copyBlocks(final MemoryRegion kv, final List<Integer> blocks, final long stagingOffset) {
        final long slot = config.slotBytes();
        int i = 0;
        while (i < blocks.size()) {
            int run = 1;
            while (i + run < blocks.size() && blocks.get(i + run) == blocks.get(i) + run) {
                run++;
            }
            memory.copy(kv, blocks.get(i) * slot, staging, stagingOffset + i * slot, run * slot);
            i += run;
        }
    }

    private boolean sendNext() {
        if (storeInFlight || saveQueue.isEmpty()) {
            return false;
        }
        final Staged s = saveQueue.poll();
        final List<SpanPiece> batchSpans = s.job.batches.get(s.batchIndex).spans();
        final List<SpanPiece> spans = new ArrayList<>(batchSpans.size());
        for (int i = 0; i < batchSpans.size(); i++) {
            final SpanPiece p = batchSpans.get(i);
            spans.add(new SpanPiece(p.alloc(), p.srcOffset() + s.stagingOffset, p.fileOffset(), p.lengthBytes()));
        }
        storeInFlight = true;
        final long storeId = nextStoreId++;
        sink.emit(new CoreEvent.BatchSent(s.job.requestId, s.batchIndex, storeId));
        call(() -> server.store(storeId, staging, spans, result -> reply(() -> acked(s, result))));
        return true;
    }

    /** Sends {@code input} to the server; it runs there after a {@link CoreEvent.Delivered} of its call id. */
    private void call(final Runnable input) {
        if (!transport.marksDeliveries()) {
            transport.toServer(0, input);
            return;
        }
        final long id = nextCallId++;
        transport.toServer(id, () -> {
            sink.emit(new CoreEvent.Delivered(id, true));
            input.run();
        });
    }

    /** Sends {@code reply} back to this client (called on the server side). */
    private void reply(final Runnable reply) {
        if (!transport.marksDeliveries()) {
            transport.toClient(0, reply);
            return;
        }
        final long id = nextCallId++;
        transport.toClient(id, () -> {
            sink.emit(new CoreEvent.Delivered(id, false));
            reply.run();
        });
    }

    private void acked(final Staged s, final StoreResult result) {
        storeInFlight = false;
        stagingSpace.free(s.stagingOffset, s.bytes);
        final SaveJob job = s.job;
        for (final AllocationRef r : result.accepted()) {
            job.accepted.putIfAbsent(r);
        }
        for (final AllocationRef r : result.rejected()) {
            job.rejected.put(r);
        }
        job.acked++;
        if (job.acked == job.batches.size()) {
            commit(job);
        }
        pump();
    }

    private void commit(final SaveJob job) {
        final List<AllocationRef> accepted = new ArrayList<>(job.accepted.size());
        job.accepted.forEach(r -> {
            if (!job.rejected.contains(r.allocationId())) {
                accepted.add(r);
            }
        });
        call(() -> server.commit(accepted, visible -> {
            final List<AllocationRef> kept = new ArrayList<>(accepted.size());
            final List<AllocationRef> rejected = new ArrayList<>(job.rejected.values());
            for (final AllocationRef ref : accepted) {
                // Durable mode: a commit the server refused (its flush or index write failed) is not accepted.
                if (config.commitMode() == CommitMode.DURABLE && !server.directory().isCommitted(ref)) {
                    rejected.add(ref);
                } else {
                    kept.add(ref);
                }
            }
            reply(() -> {
                sink.emit(new CoreEvent.RequestCommitted(job.requestId, kept.size(), rejected.size()));
                job.listener.committed(job.requestId, List.copyOf(kept), List.copyOf(rejected));
            });
        }));
    }
}
