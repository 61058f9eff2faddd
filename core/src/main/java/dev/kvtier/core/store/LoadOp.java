package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.DiscardReason;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.l1.Entry;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l1.Slice;
import dev.kvtier.core.l2.AllocationsById;
import dev.kvtier.core.l2.Checksums;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A grouped load as a continuation (docs/design/STORAGE-CORE.md 5). It leases its allocations (a ring eviction of one
 * fails the load cleanly), copies L1 hits out (stitched or sub-range; hits refresh recency), then reads the gaps from
 * L2 in batches of at most {@code readBatchMax} reads and at most L1's size in bytes. Before each read it waits for
 * pending writes that overlap it (a load never reads L2 under a pending write). Each read lands in a reserved L1 slice,
 * is copied out as soon as it completes, and is inserted as a headroom entry unless a store touched the range since the
 * read was issued (then it is discarded). A load larger than L1 completes: later batches evict earlier promotions.
 */
final class LoadOp extends Op {
    /**
     * One L2 read: whole slots {@code [fileOffset, fileOffset + lengthBytes)}, of which the gap's part
     * {@code [copyFrom, copyFrom + copyLength)} goes to the destination at {@code destOffset}. A read covers whole
     * slots so that every slot can be checked against its checksum; a read wider than its gap is not promoted.
     */
    static final class Read {
        final long fileOffset;
        final long lengthBytes;
        final long copyFrom;
        final long copyLength;
        final long destOffset;
        Slice slice;
        boolean superseded;
        /** The checksum each slot must have, taken when the read is issued, where {@link #known} says one is. */
        long[] expected;
        boolean[] known;

        Read(final long fileOffset, final long lengthBytes, final long copyFrom, final long copyLength,
             final long destOffset) {
            this.fileOffset = fileOffset;
            this.lengthBytes = lengthBytes;
            this.copyFrom = copyFrom;
            this.copyLength = copyLength;
            this.destOffset = destOffset;
        }

        boolean widened() {
            return copyFrom != fileOffset || copyLength != lengthBytes;
        }
    }

    private record Span(long fileOffset, long lengthBytes, long destOffset) {}

    private final TieredStore pump;
    private final EventSink sink;
    private final L2Directory directory;
    private final L1Cache l1;
    private final IoQueue io;
    private final WriteBatches writes;
    private final Checksums checksums;
    private final ActiveLoads loads;
    private final int readBatchMax;
    private final long maxReadBytes;
    private final List<LoadRange> ranges;
    private final MemoryRegion dest;
    private final Consumer<LoadResult> done;
    private final AllocationsById leases;
    private final ArrayDeque<Read> toRead = new ArrayDeque<>();
    private final long slotBytes;
    private long bytes;
    private long hitBytes;
    private long groupEpoch;
    private int batchReads;
    private long batchBytes;
    private int outstanding;
    private int waitingWrites;
    private boolean started;
    private boolean finished;

    LoadOp(final Parts parts, final long loadId, final List<LoadRange> ranges, final MemoryRegion dest,
           final Consumer<LoadResult> done) {
        super(loadId);
        this.pump = parts.pump();
        this.sink = parts.sink();
        this.directory = parts.directory();
        this.l1 = parts.l1();
        this.io = parts.io();
        this.writes = parts.writes();
        this.checksums = parts.checksums();
        this.loads = parts.loads();
        this.readBatchMax = parts.config().readBatchMax();
        this.maxReadBytes = parts.config().maxReadBytes();
        this.ranges = List.copyOf(ranges);
        this.leases = new AllocationsById(this.ranges.size());
        this.dest = dest;
        this.done = done;
        this.slotBytes = parts.config().slotBytes();
        for (final LoadRange r : this.ranges) {
            Alignment.requireAligned("load file offset", r.fileOffset());
            Alignment.requireAligned("load length", r.lengthBytes());
            final long allocStart = r.alloc().fileOffset(slotBytes);
            if (r.fileOffset() < allocStart || r.fileEnd() > allocStart + r.alloc().lengthBytes(slotBytes)) {
                throw new IllegalArgumentException("load range [" + r.fileOffset() + ", " + r.fileEnd()
                    + ") is outside its allocation " + r.alloc());
            }
            if (r.destOffset() + r.lengthBytes() > dest.sizeBytes()) {
                throw new IllegalArgumentException("load range ends at " + (r.destOffset() + r.lengthBytes())
                    + ", past the destination's " + dest.sizeBytes() + " B");
            }
            bytes += r.lengthBytes();
        }
    }

    @Override
    void step() {
        if (finished) {
            return;
        }
        if (!started) {
            started = true;
            if (!start()) {
                return;
            }
        }
        readGaps();
    }

    private boolean start() {
        sink.emit(new CoreEvent.LoadRequested(id, ranges, bytes));
        groupEpoch = l1.nextEpoch();
        loads.started(this);
        for (final LoadRange r : ranges) {
            if (leases.contains(r.alloc().allocationId())) {
                continue;
            }
            if (!directory.lease(r.alloc())) {
                fail(LoadFailure.NOT_COMMITTED);
                return false;
            }
            leases.putIfAbsent(r.alloc());
        }
        for (final Span s : merged()) {
            serveHits(s);
        }
        return true;
    }

    /** Consecutive ranges adjacent in file and destination become one span (one Span each, made when it ends). */
    private List<Span> merged() {
        final List<Span> out = new ArrayList<>();
        long fileOffset = 0;
        long lengthBytes = 0;
        long destOffset = 0;
        for (final LoadRange r : ranges) {
            if (lengthBytes > 0 && fileOffset + lengthBytes == r.fileOffset()
                && destOffset + lengthBytes == r.destOffset()) {
                lengthBytes += r.lengthBytes();
                continue;
            }
            if (lengthBytes > 0) {
                out.add(new Span(fileOffset, lengthBytes, destOffset));
            }
            fileOffset = r.fileOffset();
            lengthBytes = r.lengthBytes();
            destOffset = r.destOffset();
        }
        if (lengthBytes > 0) {
            out.add(new Span(fileOffset, lengthBytes, destOffset));
        }
        return out;
    }

    /** Copies out the L1 hits of one span; queues reads for the gaps. */
    private void serveHits(final Span s) {
        final long end = s.fileOffset + s.lengthBytes;
        long cursor = s.fileOffset;
        for (final Entry e : l1.overlapping(s.fileOffset, end)) {
            if (e.fileOffset() > cursor) {
                addGap(cursor, e.fileOffset() - cursor, s.destOffset + cursor - s.fileOffset);
            }
            final long from = Math.max(cursor, e.fileOffset());
            final long to = Math.min(end, e.fileEnd());
            l1.copyOut(e.slice().poolOffset() + from - e.fileOffset(), dest, s.destOffset + from - s.fileOffset,
                to - from);
            l1.hit(e);
            sink.emit(new CoreEvent.LoadHit(id, from, to - from));
            hitBytes += to - from;
            cursor = to;
        }
        if (cursor < end) {
            addGap(cursor, end - cursor, s.destOffset + cursor - s.fileOffset);
        }
    }

    private void addGap(final long fileOffset, final long lengthBytes, final long destOffset) {
        sink.emit(new CoreEvent.LoadGap(id, fileOffset, lengthBytes));
        final long cap = Math.min(maxReadBytes, l1.maxReservationBytes());
        final long piece = Math.max(1, cap / slotBytes) * slotBytes;
        final long end = fileOffset + lengthBytes;
        final long from = fileOffset / slotBytes * slotBytes;
        final long to = (end + slotBytes - 1) / slotBytes * slotBytes;
        for (long at = from; at < to; at += piece) {
            final long readEnd = Math.min(at + piece, to);
            final long copyFrom = Math.max(at, fileOffset);
            final long copyTo = Math.min(readEnd, end);
            toRead.add(new Read(at, readEnd - at, copyFrom, copyTo - copyFrom, destOffset + copyFrom - fileOffset));
        }
    }

    private void readGaps() {
        while (waitingWrites == 0) {
            if (toRead.isEmpty()) {
                if (outstanding == 0) {
                    succeed();
                }
                return;
            }
            final Read next = toRead.peek();
            if (batchReads == readBatchMax || batchBytes + next.lengthBytes > l1.maxReservationBytes()) {
                if (outstanding > 0) {
                    return;
                }
                batchReads = 0;
                batchBytes = 0;
            }
            if (waitForWrites(next)) {
                return;
            }
            final Slice slice = l1.reserve(next.lengthBytes, null);
            if (slice == null) {
                pump.parkForMemory(this, next.lengthBytes);
                return;
            }
            sink.emit(new CoreEvent.SliceReserved(id, next.fileOffset, next.lengthBytes,
                slice.poolOffset()));
            toRead.poll();
            next.slice = slice;
            next.expected = new long[Math.toIntExact(next.lengthBytes / slotBytes)];
            next.known = new boolean[next.expected.length];
            checksums.expected(next.fileOffset, next.lengthBytes, next.expected, next.known);
            batchReads++;
            batchBytes += next.lengthBytes;
            outstanding++;
            assert batchReads <= readBatchMax : "load " + id + " has " + batchReads + " reads in its batch";
            assert batchBytes <= l1.maxReservationBytes() : "load " + id + " batch of " + batchBytes + " B";
            loads.readIssued(next);
            io.read(this, next, l1.segment(slice.poolOffset(), next.lengthBytes));
        }
    }

    /** Registers on every pending write overlapping the read; true when there was one. */
    private boolean waitForWrites(final Read read) {
        final List<WriteBatch> pending = writes.overlapping(read.fileOffset, read.fileOffset + read.lengthBytes);
        for (final WriteBatch w : pending) {
            w.awaitedBy(this);
            waitingWrites++;
            sink.emit(new CoreEvent.LoadWaitsForWrite(id, w.id));
        }
        return !pending.isEmpty();
    }

    void writeFinished(final WriteBatch batch) {
        assert batch.state() == WriteBatch.State.DONE : "load " + id + " woken by unfinished batch " + batch.id;
        if (finished) {
            return;
        }
        if (waitingWrites <= 0) {
            throw new IllegalStateException("load " + id + " waits for no write, batch " + batch.id + " finished");
        }
        waitingWrites--;
        if (waitingWrites == 0) {
            pump.resume(this);
        }
    }

    void readCompleted(final Read read, final boolean ok) {
        loads.readLanded(read);
        if (outstanding <= 0) {
            throw new IllegalStateException("load " + id + " has no read outstanding");
        }
        outstanding--;
        if (finished || !ok) {
            sink.emit(new CoreEvent.PromotionDiscarded(id, read.fileOffset, read.lengthBytes,
                DiscardReason.LOAD_FAILED));
            l1.releaseIfUnused(read.slice);
            if (!finished) {
                fail(LoadFailure.READ_ERROR);
            }
            return;
        }
        for (int i = 0; i < read.lengthBytes / slotBytes; i++) {
            final long at = read.fileOffset + i * slotBytes;
            if (!checksums.verify(id, read.slice.poolOffset() + i * slotBytes, at, i, read.known[i],
                read.expected[i])) {
                sink.emit(new CoreEvent.PromotionDiscarded(id, read.fileOffset, read.lengthBytes,
                    DiscardReason.LOAD_FAILED));
                l1.releaseIfUnused(read.slice);
                fail(LoadFailure.CORRUPT);
                checksums.evictCorrupt(at);
                return;
            }
        }
        l1.copyOut(read.slice.poolOffset() + read.copyFrom - read.fileOffset, dest, read.destOffset, read.copyLength);
        if (read.superseded || read.widened()) {
            sink.emit(new CoreEvent.PromotionDiscarded(id, read.fileOffset, read.lengthBytes,
                read.superseded ? DiscardReason.SUPERSEDED : DiscardReason.PARTIAL_SLOT));
            l1.releaseIfUnused(read.slice);
        } else {
            l1.insert(id, read.fileOffset, -1, read.slice, true, groupEpoch,
                Math.toIntExact(read.destOffset / slotBytes));
            sink.emit(new CoreEvent.Promoted(id, read.fileOffset, read.lengthBytes));
        }
        pump.resume(this);
    }

    boolean holdsLease(final AllocationRef ref) {
        return !finished && leases.contains(ref.allocationId());
    }

    void leaseRevoked(final AllocationRef ref) {
        leases.remove(ref.allocationId());
        fail(LoadFailure.LEASE_REVOKED);
    }

    private void succeed() {
        finish(null);
    }

    private void fail(final LoadFailure reason) {
        finish(reason);
    }

    private void finish(final LoadFailure failure) {
        if (finished) {
            throw new IllegalStateException("load " + id + " finished twice");
        }
        finished = true;
        leases.releaseAll(directory::unlease);
        if (failure == null) {
            sink.emit(new CoreEvent.LoadCompleted(id, bytes, hitBytes));
        } else {
            sink.emit(new CoreEvent.LoadFailed(id, failure));
        }
        loads.finished(this);
        pump.leaveMemoryQueue(this);
        done.accept(new LoadResult(id, failure, bytes, hitBytes));
    }
}
