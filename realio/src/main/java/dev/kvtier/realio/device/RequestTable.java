package dev.kvtier.realio.device;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;

/**
 * The io_uring device's request table: a fixed number of entries, each one accepted request and its progress
 * (parts issued and outstanding, bytes moved, first error), a free-entry stack, and a FIFO of entries that still have
 * parts to issue. Parallel primitive arrays, allocated once; the steady state allocates nothing.
 *
 * <p>An entry is free or holds one request: accept takes a free one, release frees it once no part is outstanding;
 * a part completes only for an entry that holds a request and has a part outstanding, no part is issued after the last,
 * and the queue is never taken from empty. A violation is the device's bug: an exception naming the entry.
 */
final class RequestTable {
    private final long[] ioIds;
    private final IoOp[] ops;
    private final long[] fileOffsets;
    private final long[] lengths;
    private final long[] addresses;
    private final IoRequest[] vectors;
    private final int[] nextSegments;
    private final long[] segmentDone;
    private final long[] cursors;
    private final long[] moved;
    private final long[] errors;
    private final int[] partsOut;
    private final boolean[] allIssued;
    private final boolean[] busy;
    private final int[] free;
    private final int[] queue;
    private int freeCount;
    private int queueHead;
    private int queueCount;

    RequestTable(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("request capacity must be positive, got " + capacity);
        }
        ioIds = new long[capacity];
        ops = new IoOp[capacity];
        fileOffsets = new long[capacity];
        lengths = new long[capacity];
        addresses = new long[capacity];
        vectors = new IoRequest[capacity];
        nextSegments = new int[capacity];
        segmentDone = new long[capacity];
        cursors = new long[capacity];
        moved = new long[capacity];
        errors = new long[capacity];
        partsOut = new int[capacity];
        allIssued = new boolean[capacity];
        busy = new boolean[capacity];
        free = new int[capacity];
        queue = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
        }
        freeCount = capacity;
    }

    int capacity() {
        return free.length;
    }

    int used() {
        return free.length - freeCount;
    }

    /** Takes an entry for a request; more requests than entries is the caller's bug. */
    int accept(final long ioId, final IoOp op, final long fileOffset, final long lengthBytes) {
        if (freeCount == 0) {
            throw new IllegalStateException("more than " + free.length + " requests outstanding (maxRequests); "
                + "the caller must bound its I/Os");
        }
        final int entry = free[--freeCount];
        assert !busy[entry] : "free entry " + entry + " holds a request";
        busy[entry] = true;
        ioIds[entry] = ioId;
        ops[entry] = op;
        fileOffsets[entry] = fileOffset;
        lengths[entry] = lengthBytes;
        cursors[entry] = fileOffset;
        moved[entry] = 0;
        errors[entry] = 0;
        partsOut[entry] = 0;
        allIssued[entry] = false;
        vectors[entry] = null;
        nextSegments[entry] = 0;
        segmentDone[entry] = 0;
        return entry;
    }

    void single(final int entry, final long address) {
        addresses[entry] = address;
    }

    void vector(final int entry, final IoRequest request) {
        vectors[entry] = request;
    }

    IoRequest vectorOf(final int entry) {
        return vectors[entry];
    }

    long ioId(final int entry) {
        return ioIds[entry];
    }

    IoOp op(final int entry) {
        return ops[entry];
    }

    long fileOffset(final int entry) {
        return fileOffsets[entry];
    }

    long lengthOf(final int entry) {
        return lengths[entry];
    }

    long address(final int entry) {
        return addresses[entry];
    }

    int nextSegment(final int entry) {
        return nextSegments[entry];
    }

    long segmentDone(final int entry) {
        return segmentDone[entry];
    }

    long cursor(final int entry) {
        return cursors[entry];
    }

    void advance(final int entry, final int segment, final long done, final long cursor) {
        nextSegments[entry] = segment;
        segmentDone[entry] = done;
        cursors[entry] = cursor;
    }

    void partIssued(final int entry, final boolean last) {
        assert busy[entry] : "part issued for free entry " + entry;
        assert !allIssued[entry] : "part issued for entry " + entry + " after its last";
        partsOut[entry]++;
        allIssued[entry] = last;
    }

    void moved(final int entry, final long bytes) {
        moved[entry] += bytes;
        assert moved[entry] <= lengths[entry]
            : "entry " + entry + " moved " + moved[entry] + " of " + lengths[entry] + " B";
    }

    /** Records an error result; the first one is what the request reports. */
    void fail(final int entry, final long errorResult) {
        if (errorResult >= 0) {
            throw new IllegalArgumentException("not an error: " + errorResult);
        }
        if (errors[entry] == 0) {
            errors[entry] = errorResult;
        }
    }

    /** One part completed; true when it was the request's last. */
    boolean partDone(final int entry) {
        if (!busy[entry]) {
            throw new IllegalStateException("completion for entry " + entry + ", which holds no request");
        }
        if (partsOut[entry] <= 0) {
            throw new IllegalStateException("completion for entry " + entry + " with no part outstanding");
        }
        partsOut[entry]--;
        return partsOut[entry] == 0 && allIssued[entry];
    }

    /** The request's result: its first error, or the bytes moved (which must be all of them). */
    long result(final int entry) {
        if (errors[entry] != 0) {
            return errors[entry];
        }
        if (moved[entry] != lengths[entry]) {
            throw new IllegalStateException(
                "entry " + entry + " moved " + moved[entry] + " of " + lengths[entry] + " B");
        }
        return moved[entry];
    }

    void release(final int entry) {
        if (!busy[entry]) {
            throw new IllegalStateException("entry " + entry + " released but holds no request");
        }
        if (partsOut[entry] != 0) {
            throw new IllegalStateException("entry " + entry + " released with " + partsOut[entry]
                + " parts outstanding");
        }
        busy[entry] = false;
        vectors[entry] = null;
        free[freeCount++] = entry;
    }

    int queued() {
        return queueCount;
    }

    void enqueue(final int entry) {
        if (queueCount == queue.length) {
            throw new IllegalStateException("submission queue overflow");
        }
        queue[(queueHead + queueCount) % queue.length] = entry;
        queueCount++;
    }

    int peekQueued() {
        requireQueued();
        return queue[queueHead];
    }

    void dequeue() {
        requireQueued();
        queueHead = (queueHead + 1) % queue.length;
        queueCount--;
    }

    private void requireQueued() {
        if (queueCount == 0) {
            throw new IllegalStateException("the submission queue is empty");
        }
    }
}
