package dev.kvtier.realio.device;

import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.port.IoRequest;

/**
 * The io_uring device's request table: a fixed number of slots, each one accepted request and its progress
 * (parts issued and outstanding, bytes moved, first error), a free-slot stack, and a FIFO of slots that still have
 * parts to issue. Parallel primitive arrays, allocated once; the steady state allocates nothing.
 *
 * <p>A slot is free or holds one request: accept takes a free one, release frees it once no part is outstanding;
 * a part completes only for a slot that holds a request and has a part outstanding, no part is issued after the last,
 * and the queue is never taken from empty. A violation is the device's bug: an exception naming the slot.
 */
final class SlotTable {
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

    SlotTable(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("slot capacity must be positive, got " + capacity);
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

    /** Takes a slot for a request; more requests than slots is the caller's bug. */
    int accept(final long ioId, final IoOp op, final long fileOffset, final long lengthBytes) {
        if (freeCount == 0) {
            throw new IllegalStateException("more than " + free.length + " requests outstanding (maxRequests); "
                + "the caller must bound its I/Os");
        }
        final int slot = free[--freeCount];
        assert !busy[slot] : "free slot " + slot + " holds a request";
        busy[slot] = true;
        ioIds[slot] = ioId;
        ops[slot] = op;
        fileOffsets[slot] = fileOffset;
        lengths[slot] = lengthBytes;
        cursors[slot] = fileOffset;
        moved[slot] = 0;
        errors[slot] = 0;
        partsOut[slot] = 0;
        allIssued[slot] = false;
        vectors[slot] = null;
        nextSegments[slot] = 0;
        segmentDone[slot] = 0;
        return slot;
    }

    void single(final int slot, final long address) {
        addresses[slot] = address;
    }

    void vector(final int slot, final IoRequest request) {
        vectors[slot] = request;
    }

    IoRequest vectorOf(final int slot) {
        return vectors[slot];
    }

    long ioId(final int slot) {
        return ioIds[slot];
    }

    IoOp op(final int slot) {
        return ops[slot];
    }

    long fileOffset(final int slot) {
        return fileOffsets[slot];
    }

    long lengthOf(final int slot) {
        return lengths[slot];
    }

    long address(final int slot) {
        return addresses[slot];
    }

    int nextSegment(final int slot) {
        return nextSegments[slot];
    }

    long segmentDone(final int slot) {
        return segmentDone[slot];
    }

    long cursor(final int slot) {
        return cursors[slot];
    }

    void advance(final int slot, final int segment, final long done, final long cursor) {
        nextSegments[slot] = segment;
        segmentDone[slot] = done;
        cursors[slot] = cursor;
    }

    void partIssued(final int slot, final boolean last) {
        assert busy[slot] : "part issued for free slot " + slot;
        assert !allIssued[slot] : "part issued for slot " + slot + " after its last";
        partsOut[slot]++;
        allIssued[slot] = last;
    }

    void moved(final int slot, final long bytes) {
        moved[slot] += bytes;
        assert moved[slot] <= lengths[slot] : "slot " + slot + " moved " + moved[slot] + " of " + lengths[slot] + " B";
    }

    /** Records an error result; the first one is what the request reports. */
    void fail(final int slot, final long errorResult) {
        if (errorResult >= 0) {
            throw new IllegalArgumentException("not an error: " + errorResult);
        }
        if (errors[slot] == 0) {
            errors[slot] = errorResult;
        }
    }

    /** One part completed; true when it was the request's last. */
    boolean partDone(final int slot) {
        if (!busy[slot]) {
            throw new IllegalStateException("completion for slot " + slot + ", which holds no request");
        }
        if (partsOut[slot] <= 0) {
            throw new IllegalStateException("completion for slot " + slot + " with no part outstanding");
        }
        partsOut[slot]--;
        return partsOut[slot] == 0 && allIssued[slot];
    }

    /** The request's result: its first error, or the bytes moved (which must be all of them). */
    long result(final int slot) {
        if (errors[slot] != 0) {
            return errors[slot];
        }
        if (moved[slot] != lengths[slot]) {
            throw new IllegalStateException("slot " + slot + " moved " + moved[slot] + " of " + lengths[slot] + " B");
        }
        return moved[slot];
    }

    void release(final int slot) {
        if (!busy[slot]) {
            throw new IllegalStateException("slot " + slot + " released but holds no request");
        }
        if (partsOut[slot] != 0) {
            throw new IllegalStateException("slot " + slot + " released with " + partsOut[slot]
                + " parts outstanding");
        }
        busy[slot] = false;
        vectors[slot] = null;
        free[freeCount++] = slot;
    }

    int queued() {
        return queueCount;
    }

    void enqueue(final int slot) {
        if (queueCount == queue.length) {
            throw new IllegalStateException("submission queue overflow");
        }
        queue[(queueHead + queueCount) % queue.length] = slot;
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
