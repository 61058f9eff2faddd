package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.index.IndexIo;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The tiered store's I/O: one id sequence for both devices; the data device behind a FIFO of at most
 * {@code concurrentIos} I/Os in flight; the index device, whose I/Os ({@link IndexDeviceIo}) bypass that bound (the
 * index keeps at most one in flight); and the routing of every completion to what the I/O belongs to. The in-flight
 * maps are used for point look-ups only; nothing iterates them.
 */
final class IoQueue {
    /** An I/O of the index device; {@code done} gets the result. */
    private record IndexTask(IoRequest request, LongConsumer done) {}

    private final int concurrentIos;
    private final Memory memory;
    private final Device device;
    private final Device indexDevice;
    private final EventSink sink;
    private final ArrayDeque<IoTask> queue = new ArrayDeque<>();
    private final Map<Long, IoTask> inFlight = new HashMap<>();
    private final Map<Long, IndexTask> indexInFlight = new HashMap<>();
    private IndexDeviceIo indexIo;
    private long nextIoId = 1;

    IoQueue(final int concurrentIos, final Memory memory, final Device device, final Device indexDevice,
            final EventSink sink) {
        if (concurrentIos <= 0) {
            throw new IllegalArgumentException("concurrentIos must be positive, got " + concurrentIos);
        }
        this.concurrentIos = concurrentIos;
        this.memory = memory;
        this.device = device;
        this.indexDevice = indexDevice;
        this.sink = sink;
    }

    /** Queues the write of a submitted batch; its completion goes to {@code owner}. */
    void write(final WriteBatches owner, final WriteBatch batch, final List<IoSegment> segments) {
        assert batch.state() == WriteBatch.State.SUBMITTED : "writing batch " + batch.id + " that is " + batch.state();
        enqueue(new IoTask.Write(new IoRequest(nextId(), IoOp.WRITE, batch.fileStart, segments), batch, owner));
    }

    /** Queues one read of a load into {@code segment}; its completion goes to {@code load}. */
    void read(final LoadOp load, final LoadOp.Read read, final IoSegment segment) {
        enqueue(new IoTask.Read(new IoRequest(nextId(), IoOp.READ, read.fileOffset, List.of(segment)), load, read));
    }

    /** Queues a FLUSH of the data device; {@code done} gets the result. */
    void flush(final LongConsumer done) {
        enqueue(new IoTask.Flush(new IoRequest(nextId(), IoOp.FLUSH, 0, List.of()), done));
    }

    /** Submits queued I/Os, oldest first, while fewer than {@code concurrentIos} are in flight. */
    void submitQueued() {
        while (inFlight.size() < concurrentIos && !queue.isEmpty()) {
            final IoTask task = queue.poll();
            final IoRequest r = task.request();
            if (inFlight.put(r.ioId(), task) != null) {
                throw new IllegalStateException("I/O id " + r.ioId() + " is already in flight");
            }
            sink.emit(new CoreEvent.IoSubmitted(r.ioId(), r.op(), r.fileOffset(), r.lengthBytes(),
                r.segments().size()));
            device.submit(r);
        }
        assert inFlight.size() <= concurrentIos : inFlight.size() + " data I/Os in flight, bound " + concurrentIos;
        assert queue.isEmpty() || inFlight.size() == concurrentIos : "I/O queued while a slot is free";
    }

    /**
     * Routes a completion of either device: an index I/O to its continuation, a data I/O (by what it belongs to) to
     * its write batch, its load or its flush. The caller then submits what is queued and pumps.
     */
    void complete(final IoCompletion completion) {
        final IndexTask index = indexInFlight.remove(completion.ioId());
        if (index != null) {
            assert !inFlight.containsKey(completion.ioId()) : "I/O id " + completion.ioId() + " on both devices";
            final IoRequest r = index.request();
            sink.emit(new CoreEvent.IndexIoCompleted(r.ioId(), r.op(), r.fileOffset(), completion.result()));
            index.done().accept(completion.result());
            return;
        }
        final IoTask task = inFlight.remove(completion.ioId());
        if (task == null) {
            throw new IllegalStateException("completion for unknown I/O " + completion.ioId());
        }
        final IoRequest r = task.request();
        sink.emit(new CoreEvent.IoCompleted(r.ioId(), r.op(), r.fileOffset(), completion.result()));
        final boolean ok = completion.result() == r.lengthBytes();
        switch (task) {
            case IoTask.Write w -> w.owner().finished(w.batch(), ok);
            case IoTask.Read rd -> rd.load().readCompleted(rd.read(), ok);
            case IoTask.Flush f -> f.done().accept(completion.result());
        }
    }

    /** The index device's I/O path: one staging buffer (allocated on first use), I/Os outside the bound. */
    IndexIo indexIo(final long bufferBytes) {
        if (indexIo == null) {
            indexIo = new IndexDeviceIo(this, memory.allocate("index-buffer", bufferBytes));
        }
        return indexIo;
    }

    /** Submits an index I/O at once: {@code [0, lengthBytes)} of {@code buffer} (nothing for a FLUSH). */
    void submitIndex(final IoOp op, final long offset, final long lengthBytes, final MemoryRegion buffer,
                     final LongConsumer done) {
        assert indexInFlight.isEmpty() : indexInFlight.size() + " index I/Os already in flight";
        final IoRequest r = new IoRequest(nextId(), op, offset,
            op == IoOp.FLUSH ? List.of() : List.of(new IoSegment(buffer, 0, lengthBytes)));
        indexInFlight.put(r.ioId(), new IndexTask(r, done));
        sink.emit(new CoreEvent.IndexIoSubmitted(r.ioId(), op, offset, lengthBytes));
        indexDevice.submit(r);
    }

    /** True when no data I/O is queued or in flight (index I/Os aside). */
    boolean idle() {
        return inFlight.isEmpty() && queue.isEmpty();
    }

    int inFlightCount() {
        return inFlight.size();
    }

    int queuedCount() {
        return queue.size();
    }

    /** Frees the index staging buffer, if one was allocated. Only once no data I/O is in flight. */
    void close() {
        if (!inFlight.isEmpty()) {
            throw new IllegalStateException("closing the I/O queue with " + inFlight.size() + " I/Os in flight");
        }
        if (indexIo != null) {
            memory.free(indexIo.buffer());
        }
    }

    private long nextId() {
        final long id = nextIoId++;
        assert id > 0 : "I/O id " + id;
        assert nextIoId > id : "I/O id sequence overflowed at " + id;
        return id;
    }

    private void enqueue(final IoTask task) {
        assert task.request().ioId() < nextIoId : "I/O id " + task.request().ioId() + " was never issued";
        queue.add(task);
        submitQueued();
    }
}
