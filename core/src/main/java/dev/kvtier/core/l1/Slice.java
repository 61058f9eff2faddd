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
}
