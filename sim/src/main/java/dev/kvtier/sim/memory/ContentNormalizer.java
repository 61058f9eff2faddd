package dev.kvtier.sim.memory;

import com.dynatrace.hash4j.hashing.HashStream64;

/**
 * {@link RunMap#contentHash}'s stream of pieces: merges continuing pieces and emits gaps, so the hash depends on
 * content, not on how runs are split.
 */
final class ContentNormalizer implements RunMap.PieceVisitor {
    /** Hash stream markers: a piece of content and a never-written gap never hash alike. */
    private static final long WRITTEN = 0x5752_4954_5445_4E00L;
    private static final long GAP = 0x4741_5000_0000_0000L;

    private final HashStream64 hash;
    private final long base;
    private long start;
    private long length;
    private long tag;
    private long pos;
    private long end;

    ContentNormalizer(final HashStream64 hash, final long base) {
        this.hash = hash;
        this.base = base;
        this.end = base;
    }

    @Override
    public void piece(final long pieceStart, final long pieceLength, final long pieceTag, final long piecePos) {
        if (length > 0 && pieceStart == start + length && pieceTag == tag && piecePos == pos + length) {
            length += pieceLength;
            return;
        }
        emitRun();
        if (pieceStart > end) {
            hash.putLong(GAP).putLong(end - base).putLong(pieceStart - end);
        }
        start = pieceStart;
        length = pieceLength;
        tag = pieceTag;
        pos = piecePos;
        end = pieceStart + pieceLength;
    }

    void finish(final long to) {
        emitRun();
        if (to > end) {
            hash.putLong(GAP).putLong(end - base).putLong(to - end);
        }
    }

    private void emitRun() {
        if (length > 0) {
            hash.putLong(WRITTEN).putLong(start - base).putLong(length).putLong(tag).putLong(pos);
            end = start + length;
            length = 0;
        }
    }
}
