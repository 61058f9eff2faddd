package dev.kvtier.core.l1;

/**
 * An L1 entry: the L2 byte range {@code [fileOffset, fileOffset + lengthBytes)} held in a pool slice. Entries never
 * overlap. {@code headroom} marks entries created by promotion from L2 (evicted before any normal entry). The
 * ordering fields belong to the replacement policy.
 */
public final class Entry {
    final long fileOffset;
    final long lengthBytes;
    final Slice slice;
    final boolean headroom;
    // Replacement bookkeeping, owned by the policy.
    long sequence;
    long groupEpoch;
    int prefixIndex;

    Entry(final long fileOffset, final long lengthBytes, final Slice slice, final boolean headroom) {
        this.fileOffset = fileOffset;
        this.lengthBytes = lengthBytes;
        this.slice = slice;
        this.headroom = headroom;
    }

    public long fileOffset() {
        return fileOffset;
    }

    public long lengthBytes() {
        return lengthBytes;
    }

    public long fileEnd() {
        return fileOffset + lengthBytes;
    }

    public Slice slice() {
        return slice;
    }

    public boolean headroom() {
        return headroom;
    }

    public int prefixIndex() {
        return prefixIndex;
    }

    public long groupEpoch() {
        return groupEpoch;
    }

    public long sequence() {
        return sequence;
    }

    @Override
    public String toString() {
        return (headroom ? "H" : "N") + "[" + fileOffset + ",+" + lengthBytes + ")@" + slice.poolOffset;
    }
}
