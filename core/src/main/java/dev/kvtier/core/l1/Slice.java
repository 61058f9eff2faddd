package dev.kvtier.core.l1;

/**
 * One lease of the L1 pool. It is freed exactly once, when it is neither resident (its entry is in the map) nor
 * owned by a pending L2 write, nor awaiting a read.
 */
public final class Slice {
    final long poolOffset;
    final long lengthBytes;
    boolean resident;
    int pendingWrites;
    boolean freed;

    Slice(final long poolOffset, final long lengthBytes) {
        this.poolOffset = poolOffset;
        this.lengthBytes = lengthBytes;
    }

    public long poolOffset() {
        return poolOffset;
    }

    public long lengthBytes() {
        return lengthBytes;
    }

    public boolean resident() {
        return resident;
    }

    public int pendingWrites() {
        return pendingWrites;
    }

    public boolean freed() {
        return freed;
    }

    void addPendingWrite() {
        if (freed) {
            throw new IllegalStateException("pending write on a freed slice at " + poolOffset);
        }
        pendingWrites++;
    }

    void removePendingWrite() {
        if (pendingWrites <= 0) {
            throw new IllegalStateException("slice at " + poolOffset + " has no pending write");
        }
        pendingWrites--;
    }

    void markFreed() {
        if (freed) {
            throw new IllegalStateException("slice at " + poolOffset + " freed twice");
        }
        assert !resident : "freeing resident slice at " + poolOffset;
        assert pendingWrites == 0 : "freeing slice at " + poolOffset + " held by " + pendingWrites + " writes";
        freed = true;
    }
}
