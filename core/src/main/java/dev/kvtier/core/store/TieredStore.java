package dev.kvtier.core.store;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.index.IndexIo;
import dev.kvtier.core.l1.Admission;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l2.Checksums;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The tiered store: grouped store and grouped load over L1 and the L2 device. A single-threaded, non-blocking
 * state machine: every public method is one input; where the reference blocks (waiting for memory held by a pending
 * write, or for a pending write under a load's gap), the operation parks as a continuation ({@link Op}) and resumes
 * on the completion that unblocks it.
 *
 * <p>The tiered store is a small pump over parts that each own one job and its state: {@link L1Cache} (pool, entries,
 * policy, admission), {@link IoQueue} (ids, both devices, the bounded FIFO, completion routing), {@link WriteBatches}
 * (the L2 write path), {@link CommitPipeline} (both commit modes), {@link Checksums} and {@link ActiveLoads}. The
 * pump owns what sequences them: the ready queue of operations, the operations waiting for memory and the drain
 * waiters. Operations ({@link StoreOp}, {@link LoadOp}) call the parts directly.
 *
 * <p>Fairness: operations waiting for memory are served strictly first-in, first-out; an operation arriving while
 * others wait queues behind them. I/Os beyond {@code concurrentIos} wait in a FIFO queue.
 *
 * <p>Write errors are recorded, the affected L2 range is invalidated in the directory (its keys leave it, so
 * nothing is served from bytes that never reached L2), and the error count is surfaced with the next store result.
 */
public final class TieredStore {
    private final CoreConfig config;
    private final EventSink sink;
    private final L1Cache l1;
    private final IoQueue io;
    private final WriteBatches writes;
    private final CommitPipeline commits;
    private final Checksums checksums;
    private final ActiveLoads loads;
    private final Parts parts;
    private final ArrayDeque<Op> memoryWaiters = new ArrayDeque<>();
    private final ArrayDeque<Op> ready = new ArrayDeque<>();
    private final List<Runnable> drainWaiters = new ArrayList<>();
    private boolean pumping;
    private boolean closed;

    /**
     * @param device      the L2 data device; it must hold the ring
     * @param indexDevice the crash-safe index's device (the server sizes it and opens the index on it)
     */
    public TieredStore(final CoreConfig config, final Memory memory, final Device device, final Device indexDevice,
                       final EventSink sink, final L2Directory directory) {
        Objects.requireNonNull(indexDevice, "indexDevice");
        if (device.capacityBytes() < config.l2Slots() * config.slotBytes()) {
            throw new IllegalArgumentException("device holds " + device.capacityBytes() + " B, the ring needs "
                + config.l2Slots() * config.slotBytes() + " B");
        }
        this.config = config;
        this.sink = sink;
        this.l1 = new L1Cache(config, memory, sink, () -> !memoryWaiters.isEmpty());
        this.io = new IoQueue(config.concurrentIos(), memory, device, indexDevice, sink);
        this.writes = new WriteBatches(sink, l1, io, directory);
        this.commits = new CommitPipeline(config.commitMode(), config.slotBytes(), sink, directory, writes, io);
        this.checksums = new Checksums(config.slotBytes(), sink, memory, l1.region(), directory);
        this.loads = new ActiveLoads(config.slotBytes());
        this.parts = new Parts(config, sink, directory, l1, io, writes, checksums, loads, this);
        directory.setListener(loads::chunkEvicted);
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
        ready.add(new StoreOp(parts, storeId, source, spans, rejectedAtBoundary, done));
        pump();
    }

    /** A grouped load into {@code dest}; {@code done} is called once, when every byte is there or the load failed. */
    public void load(final long loadId, final List<LoadRange> ranges, final MemoryRegion dest,
                     final Consumer<LoadResult> done) {
        requireOpen();
        ready.add(new LoadOp(parts, loadId, ranges, dest, done));
        pump();
    }

    /** A device completion (of either device): routed to what the I/O belongs to, then the queue and ops move on. */
    public void onIoComplete(final IoCompletion completion) {
        io.complete(completion);
        io.submitQueued();
        wakeMemoryWaiters();
        pump();
    }

    /**
     * Commits allocations a client stored, in the configured mode ({@link CommitPipeline}). First, L1 entries over a
     * slot whose checksum is unknown are dropped: such a slot is never served (docs/design/STORAGE-CORE.md 10), and an
     * entry over one that no store of this allocation covered holds the bytes of the slot's previous owner, which the
     * ring evicted without touching L1.
     */
    public void commit(final List<AllocationRef> refs, final Consumer<Integer> done) {
        for (final AllocationRef ref : refs) {
            for (int s = checksums.nextUnknownSlot(ref, ref.startSlot()); s >= 0; s = checksums.nextUnknownSlot(ref,
                s + 1)) {
                l1.dropOverlaps(s * config.slotBytes(), (s + 1) * config.slotBytes());
            }
        }
        commits.commit(refs, done);
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
        return io.indexIo(bufferBytes);
    }

    /** Calls {@code done} once no L2 write is pending (immediately if none is). */
    public void drain(final Runnable done) {
        sink.emit(new CoreEvent.DrainRequested());
        drainWaiters.add(done);
        checkDrained();
    }

    /** Releases the pool and the index buffer. Only after a drain with no operation in progress. */
    public void close() {
        if (!writes.isEmpty() || !io.idle() || !loads.isEmpty() || !memoryWaiters.isEmpty()) {
            throw new IllegalStateException("close with work in progress: " + writes.count() + " pending writes, "
                + io.inFlightCount() + " I/Os in flight, " + loads.count() + " loads");
        }
        if (!closed) {
            closed = true;
            l1.close();
            io.close();
        }
    }

    // ---------------------------------------------------------------- inspection (checkers, tests, replay)

    public long residentBytes() {
        return l1.residentBytes();
    }

    public Admission admission() {
        return l1.admission();
    }

    public L1Access l1() {
        return l1.access();
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

    public long durableCommits() {
        return commits.durableCommits();
    }

    public long refusedCommits() {
        return commits.refusedCommits();
    }

    public long checksumMismatches() {
        return checksums.mismatches();
    }

    public CoreConfig config() {
        return config;
    }

    /**
     * True when {@code piece} writes again, whole slot by whole slot, the bytes its allocation holds (by their
     * checksums): the server boundary lets no other store into a committed allocation.
     */
    public boolean sameAsKept(final SpanPiece piece, final MemoryRegion source) {
        return checksums.sameAsKept(piece, source);
    }

    // ---------------------------------------------------------------- the pump (for operations)

    /**
     * Parks {@code op} until memory may have been freed. Fails loudly if nothing could ever free it.
     *
     * <p>An operation waits in the queue once. A load is stepped while it waits when one of its reads lands; it then
     * finds others waiting (itself among them), so its reservation queues again: it keeps the place it has, and no
     * second wait is reported. (It used to be queued twice, and a load that failed while queued twice left one place
     * behind it.)
     */
    void parkForMemory(final Op op, final long neededBytes) {
        if (op.waitingForMemory) {
            return;
        }
        if (writes.isEmpty() && io.idle() && ready.isEmpty() && memoryWaiters.isEmpty()) {
            throw new IllegalStateException("op " + op.id + " waits for " + neededBytes
                + " B but no write or read is pending: " + l1.describe());
        }
        sink.emit(new CoreEvent.MemoryWait(op.id, neededBytes));
        op.waitingForMemory = true;
        memoryWaiters.add(op);
    }

    /** A finished operation leaves the memory queue (a load can fail while it waits). */
    void leaveMemoryQueue(final Op op) {
        if (op.waitingForMemory) {
            op.waitingForMemory = false;
            memoryWaiters.remove(op);
        }
    }

    /** Resumes a parked operation at the next pump. */
    void resume(final Op op) {
        ready.add(op);
    }

    // ---------------------------------------------------------------- internals

    /** After a write or a memory change: every memory waiter retries, in order. */
    private void wakeMemoryWaiters() {
        while (!memoryWaiters.isEmpty()) {
            final Op op = memoryWaiters.poll();
            op.waitingForMemory = false;
            ready.add(op);
        }
    }

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
            throw new IllegalStateException("tiered store is closed");
        }
    }
}
