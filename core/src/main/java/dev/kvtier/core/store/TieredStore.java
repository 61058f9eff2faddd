package dev.kvtier.core.store;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.l1.Admission;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l1.Slice;
import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.index.IndexIo;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.SpanPiece;
import dev.kvtier.core.span.StoreSpan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The L1/L2 store engine: grouped store and grouped load over the L1 pool, the entry map, the replacement policy
 * and the L2 device. A single-threaded, non-blocking state machine: every public method is one input; where the
 * reference blocks (waiting for memory held by a pending write, or for a pending write under a load's gap), the
 * operation parks as a continuation ({@link Op}) and resumes on the completion that unblocks it.
 *
 * <p>Fairness: operations waiting for memory are served strictly first-in, first-out; an operation arriving while
 * others wait queues behind them. I/Os beyond {@code concurrentIos} wait in a FIFO queue.
 *
 * <p>Write errors are recorded, the affected L2 range is invalidated in the directory (its keys leave the index, so
 * nothing is served from bytes that never reached L2), and the error count is surfaced with the next store result.
 */
public final class TieredStore {
    private final CoreConfig config;
    private final Device indexDevice;
    private final EventSink sink;
    private final L2Directory directory;
    private final L1Cache cache;
    private final IoQueue io;
    private final WriteBatches writes;
    private final ArrayDeque<Op> memoryWaiters = new ArrayDeque<>();
    private final ArrayDeque<Op> ready = new ArrayDeque<>();
    private final List<LoadOp> activeLoads = new ArrayList<>();
    private final List<LoadOp.Read> readsInFlight = new ArrayList<>();
    private final List<Runnable> drainWaiters = new ArrayList<>();
    private final ArrayDeque<DurableCommit> readyToFlush = new ArrayDeque<>();
    private boolean dataFlushInFlight;
    private long nextCommitId = 1;
    private long durableCommits;
    private long refusedCommits;
    private long checksumMismatches;
    private boolean pumping;
    private boolean closed;

    /** A durable commit: waits for the L2 writes of its ranges, then for a data flush, then for its log records. */
    private static final class DurableCommit {
        final long id;
        final List<AllocationRef> refs;
        final Consumer<Integer> done;
        int waitingWrites;

        DurableCommit(final long id, final List<AllocationRef> refs, final Consumer<Integer> done) {
            this.id = id;
            this.refs = refs;
            this.done = done;
        }
    }

    public TieredStore(final CoreConfig config, final Memory memory, final Device device, final EventSink sink,
                       final L2Directory directory) {
        this(config, memory, device, null, sink, directory);
    }

    /**
     * @param indexDevice the crash-safe index's device, or null for a store whose index is not persisted (unit
     *                    tests of other behaviour; durable mode needs one)
     */
    public TieredStore(final CoreConfig config, final Memory memory, final Device device, final Device indexDevice,
                       final EventSink sink, final L2Directory directory) {
        this.config = config;
        this.indexDevice = indexDevice;
        if (indexDevice == null && config.commitMode() == CommitMode.DURABLE) {
            throw new IllegalArgumentException("commitMode durable needs an index device");
        }
        this.sink = sink;
        this.directory = directory;
        if (device.capacityBytes() < config.l2Slots() * config.slotBytes()) {
            throw new IllegalArgumentException("device holds " + device.capacityBytes() + " B, the ring needs "
                + config.l2Slots() * config.slotBytes() + " B");
        }
        this.cache = new L1Cache(config, memory, sink, () -> !memoryWaiters.isEmpty());
        this.io = new IoQueue(config.concurrentIos(), memory, device, indexDevice, sink);
        this.writes = new WriteBatches(sink, cache, io, directory);
        directory.setListener(this::chunkEvicted);
    }

    // ---------------------------------------------------------------- inputs

    /**
     * A grouped store: spans in order, already shaped by the server boundary. {@code rejectedAtBoundary} are the
     * allocations whose spans the boundary dropped; they are reported as rejected. Completes (calls {@code done})
     * once every accepted byte is in L1.
     */
    public void store(final long storeId, final MemoryRegion source, final List<StoreSpan> spans,
                      final List<AllocationRef> rejectedAtBoundary, final Consumer<StoreResult> done) {
        requireOpen();
        ready.add(new StoreOp(this, storeId, source, spans, rejectedAtBoundary, done));
        pump();
    }

    /** A grouped load into {@code dest}; {@code done} is called once, when every byte is there or the load failed. */
    public void load(final long loadId, final List<LoadRange> ranges, final MemoryRegion dest,
                     final Consumer<LoadResult> done) {
        requireOpen();
        ready.add(new LoadOp(this, loadId, ranges, dest, done));
        pump();
    }

    /** A device completion (of either device). */
    public void onIoComplete(final IoCompletion completion) {
        io.complete(completion);
        io.submitQueued();
        wakeMemoryWaiters();
        pump();
    }

    /**
     * Commits allocations whose bytes a client stored. {@code l1} mode: visible at once (their records go to the
     * index log lazily). {@code durable} mode: once every pending L2 write over their ranges has finished, the data
     * device is flushed, their COMMIT records are appended and the index log is made durable; only then do they become
     * visible. An allocation that is evicted or whose write fails meanwhile is a late commit; one whose flush or log
     * write fails is refused (evicted, never visible). {@code done} gets how many became visible.
     */
    public void commit(final List<AllocationRef> refs, final Consumer<Integer> done) {
        if (config.commitMode() == CommitMode.L1) {
            done.accept(directory.commit(refs));
            return;
        }
        sink.emit(new CoreEvent.CommitRequested(refs));
        final DurableCommit c = new DurableCommit(nextCommitId++, List.copyOf(refs), done);
        for (final AllocationRef ref : refs) {
            final long from = ref.fileOffset(config.slotBytes());
            for (final WriteBatch w : writes.overlapping(from, from + ref.lengthBytes(config.slotBytes()))) {
                c.waitingWrites++;
                w.awaitedBy(() -> {
                    c.waitingWrites--;
                    if (c.waitingWrites == 0) {
                        readyToFlush.add(c);
                        flushForCommits();
                    }
                });
            }
        }
        sink.emit(new CoreEvent.CommitPending(c.id, refs.size(), c.waitingWrites));
        if (c.waitingWrites == 0) {
            readyToFlush.add(c);
            flushForCommits();
        }
    }

    /** One data flush for every durable commit whose writes have finished (group commit). */
    private void flushForCommits() {
        if (dataFlushInFlight || readyToFlush.isEmpty()) {
            return;
        }
        final List<DurableCommit> group = new ArrayList<>(readyToFlush);
        readyToFlush.clear();
        dataFlushInFlight = true;
        io.flush(result -> {
            dataFlushInFlight = false;
            if (result < 0) {
                for (final DurableCommit c : group) {
                    refuse(c);
                }
            } else {
                logDurably(group);
            }
            flushForCommits();
        });
    }

    private void logDurably(final List<DurableCommit> group) {
        final List<List<AllocationRef>> kept = new ArrayList<>();
        for (final DurableCommit c : group) {
            final List<AllocationRef> current = new ArrayList<>();
            for (final AllocationRef ref : c.refs) {
                if (directory.logCommit(ref)) {
                    current.add(ref);
                }
            }
            kept.add(current);
        }
        directory.indexLog().whenDurable(directory.indexLog().lastSeq(), ok -> {
            for (int i = 0; i < group.size(); i++) {
                final DurableCommit c = group.get(i);
                if (ok) {
                    durableCommits++;
                    c.done.accept(directory.publish(c.refs));
                } else {
                    refuse(c);
                }
            }
        });
    }

    private void refuse(final DurableCommit c) {
        for (final AllocationRef ref : c.refs) {
            if (directory.isCurrent(ref) && !directory.isCommitted(ref)) {
                refusedCommits++;
                sink.emit(new CoreEvent.CommitRefused(c.id, ref.key(), ref.allocationId()));
                directory.refuse(ref);
            }
        }
        c.done.accept(0);
    }

    /**
     * Shuts down durably: once no L2 write is pending, one FLUSH of the data device; {@code done} gets null, or a
     * line saying what failed. The index log's part is the server's.
     */
    public void flushData(final Consumer<String> done) {
        drain(() -> io.flush(result -> done.accept(result < 0 ? "the data device's flush failed: " + result : null)));
    }

    /** The index device's I/O path: one staging buffer, I/Os outside the {@code concurrentIos} bound. */
    public IndexIo indexIo(final long bufferBytes) {
        if (indexDevice == null) {
            throw new IllegalStateException("this store has no index device");
        }
        return io.indexIo(bufferBytes);
    }

    /** Checks a slot read back from L2 against its checksum. */
    boolean verifySlot(final long loadId, final long poolOffset, final long fileOffset, final int slotIndex,
                       final Long expected) {
        final long sum = cache.checksum(poolOffset, config.slotBytes());
        if (expected != null && expected == sum) {
            return true;
        }
        checksumMismatches++;
        sink.emit(new CoreEvent.ChecksumMismatch(loadId, fileOffset, config.slotBytes(), slotIndex));
        return false;
    }

    /** Keeps the checksum of every whole slot a stored span piece covers (a partly covered slot becomes unknown). */
    void recordChecksums(final StoreSpan span, final long poolOffset) {
        final long slotBytes = config.slotBytes();
        for (final SpanPiece p : span.pieces()) {
            final long first = p.fileOffset() / slotBytes;
            final long last = (p.fileEnd() - 1) / slotBytes;
            for (long slot = first; slot <= last; slot++) {
                final long from = slot * slotBytes;
                final int s = Math.toIntExact(slot);
                if (from >= p.fileOffset() && from + slotBytes <= p.fileEnd()) {
                    directory.recordChecksum(p.alloc(), s,
                        cache.checksum(poolOffset + from - span.fileOffset(), slotBytes));
                } else {
                    directory.forgetChecksum(p.alloc(), s);
                }
            }
        }
    }

    /** The checksums the slots of {@code [fileOffset, +lengthBytes)} must have now (null where none is known). */
    Long[] expectedSums(final long fileOffset, final long lengthBytes) {
        final int first = Math.toIntExact(fileOffset / config.slotBytes());
        final Long[] out = new Long[Math.toIntExact(lengthBytes / config.slotBytes())];
        for (int i = 0; i < out.length; i++) {
            out[i] = directory.expectedSum(first + i);
        }
        return out;
    }

    /** A read failed its checksum: the chunk holding the slot leaves the index. */
    void evictCorrupt(final long fileOffset) {
        directory.evictCorrupt(Math.toIntExact(fileOffset / config.slotBytes()));
    }

    public long durableCommits() {
        return durableCommits;
    }

    public long refusedCommits() {
        return refusedCommits;
    }

    public long checksumMismatches() {
        return checksumMismatches;
    }

    /** Calls {@code done} once no L2 write is pending (immediately if none is). */
    public void drain(final Runnable done) {
        sink.emit(new CoreEvent.DrainRequested());
        drainWaiters.add(done);
        checkDrained();
    }

    /** Releases the pool. Only after a drain with no operation in progress. */
    public void close() {
        if (!writes.isEmpty() || !io.idle() || !activeLoads.isEmpty() || !memoryWaiters.isEmpty()) {
            throw new IllegalStateException("close with work in progress: " + writes.count() + " pending writes, "
                + io.inFlightCount() + " I/Os in flight, " + activeLoads.size() + " loads");
        }
        if (!closed) {
            closed = true;
            cache.close();
            io.close();
        }
    }

    // ---------------------------------------------------------------- inspection (checkers, tests, replay)

    public long residentBytes() {
        return cache.residentBytes();
    }

    public Admission admission() {
        return cache.admission();
    }

    public L1Access l1() {
        return cache.access();
    }

    public int pendingWriteCount() {
        return writes.count();
    }

    /** The pending write batches, oldest first, as read-only snapshots (for state dumps such as replay's). */
    public List<PendingWriteView> pendingWrites() {
        return writes.views();
    }

    public int ioInFlight() {
        return io.inFlightCount();
    }

    public int ioQueued() {
        return io.queuedCount();
    }

    public int memoryWaiters() {
        return memoryWaiters.size();
    }

    public long writesCompleted() {
        return writes.completed();
    }

    public long writeErrors() {
        return writes.errors();
    }

    public CoreConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- services for operations

    EventSink sink() {
        return sink;
    }

    L2Directory directory() {
        return directory;
    }

    L1Cache cache() {
        return cache;
    }

    WriteBatches writes() {
        return writes;
    }

    /** Parks {@code op} until memory may have been freed. Fails loudly if nothing could ever free it. */
    void parkForMemory(final Op op, final long neededBytes) {
        if (writes.isEmpty() && io.idle() && ready.isEmpty()
            && memoryWaiters.isEmpty()) {
            throw new IllegalStateException("op " + op.id + " waits for " + neededBytes
                + " B but no write or read is pending: " + cache.describe());
        }
        sink.emit(new CoreEvent.MemoryWait(op.id, neededBytes));
        memoryWaiters.add(op);
    }

    /** A store touched {@code [from, to)}: in-flight promotions of it must not be inserted. */
    void supersedeReads(final long from, final long to) {
        for (final LoadOp.Read r : readsInFlight) {
            if (r.fileOffset < to && from < r.fileOffset + r.lengthBytes) {
                r.superseded = true;
            }
        }
    }

    void submitRead(final LoadOp load, final LoadOp.Read read) {
        readsInFlight.add(read);
        io.read(load, read, cache.segment(read.slice.poolOffset(), read.lengthBytes));
    }

    void readLanded(final LoadOp.Read read) {
        if (!readsInFlight.remove(read)) {
            throw new IllegalStateException("read of " + read.fileOffset + " was not in flight");
        }
    }

    void loadStarted(final LoadOp load) {
        activeLoads.add(load);
    }

    void loadFinished(final LoadOp load) {
        activeLoads.remove(load);
        memoryWaiters.remove(load);
    }

    /** Resumes a parked operation at the next pump. */
    void resume(final Op op) {
        ready.add(op);
    }

    /** After a write or a memory change: every memory waiter retries, in order. */
    void wakeMemoryWaiters() {
        while (!memoryWaiters.isEmpty()) {
            ready.add(memoryWaiters.poll());
        }
    }

    // ---------------------------------------------------------------- internals

    private void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        try {
            while (!ready.isEmpty()) {
                ready.poll().step();
            }
        } finally {
            pumping = false;
        }
        checkDrained();
    }

    private void chunkEvicted(final AllocationRef ref, final RingEvictReason reason) {
        final long from = ref.fileOffset(config.slotBytes());
        supersedeReads(from, from + ref.lengthBytes(config.slotBytes()));
        for (final LoadOp load : List.copyOf(activeLoads)) {
            if (load.holdsLease(ref)) {
                load.leaseRevoked(ref);
            }
        }
    }

    private void checkDrained() {
        if (drainWaiters.isEmpty() || !writes.isEmpty()) {
            return;
        }
        sink.emit(new CoreEvent.Drained(writes.completed()));
        final List<Runnable> waiters = List.copyOf(drainWaiters);
        drainWaiters.clear();
        for (final Runnable r : waiters) {
            r.run();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("store engine is closed");
        }
    }
}
