package dev.kvtier.sim.memory;

// The tree-map RunMap this package had before RunBlocks: the reference model of RunMapTest.

import com.dynatrace.hash4j.hashing.HashStream64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The provenance of a byte space (a memory region or the L2 file) as disjoint runs. A run {@code [start, start +
 * length)} holds the content of {@code tag} from position {@code pos}: byte {@code start + i} is byte
 * {@code pos + i} of that tag's content. Bytes outside every run were never written (tag 0). Runs are not merged,
 * so the map stays proportional to the number of distinct writes, not to the bytes: 225 GiB of slots simulate in
 * a few hundred thousand runs.
 */
final class TreeRunMap {
    /** One run's content. */
    public record Run(long lengthBytes, long tag, long pos) {}

    /** Receives pieces of runs, in offset order. */
    @FunctionalInterface
    public interface PieceVisitor {
        /** {@code [start, start + lengthBytes)} holds {@code tag} from position {@code pos}. */
        void piece(long start, long lengthBytes, long tag, long pos);
    }

    /** Hash stream markers: a piece of content and a never-written gap never hash alike. */
    private static final long WRITTEN = 0x5752_4954_5445_4E00L;
    private static final long GAP = 0x4741_5000_0000_0000L;

    private final TreeMap<Long, Run> runs = new TreeMap<>();
    /** Reused by {@link #contentHash} (one stream per map; the simulator is single-threaded). */
    private HashStream64 hashStream;

    /** Forgets {@code [from, to)}, splitting runs that cross either end. */
    public void clear(final long from, final long to) {
        if (from >= to) {
            return;
        }
        splitAt(from);
        splitAt(to);
        runs.subMap(from, true, to, false).clear();
    }

    /** Records that {@code [start, start + length)} holds {@code tag} from position {@code pos}. */
    public void put(final long start, final long lengthBytes, final long tag, final long pos) {
        clear(start, start + lengthBytes);
        runs.put(start, new Run(lengthBytes, tag, pos));
    }

    /** Copies the provenance of {@code src [srcFrom, srcFrom + length)} to {@code [dstFrom, ...)} of this map. */
    public void copyFrom(final TreeRunMap src, final long srcFrom, final long dstFrom, final long lengthBytes) {
        final List<long[]> pieces = src.pieces(srcFrom, srcFrom + lengthBytes);
        clear(dstFrom, dstFrom + lengthBytes);
        for (final long[] p : pieces) {
            runs.put(dstFrom + (p[0] - srcFrom), new Run(p[1], p[2], p[3]));
        }
    }

    /**
     * The first offset in {@code [from, from + length)} whose content is not byte {@code offset - from} of
     * {@code tag}, or -1.
     */
    public long firstMismatch(final long from, final long lengthBytes, final long tag) {
        long expected = from;
        for (final long[] p : pieces(from, from + lengthBytes)) {
            if (p[0] != expected) {
                return expected;
            }
            if (p[2] != tag || p[3] != p[0] - from) {
                return p[0];
            }
            expected = p[0] + p[1];
        }
        return expected == from + lengthBytes ? -1 : expected;
    }

    /** The tag at {@code offset}, or 0 if never written. */
    public long tagAt(final long offset) {
        final Map.Entry<Long, Run> e = runs.floorEntry(offset);
        return e != null && e.getKey() + e.getValue().lengthBytes() > offset ? e.getValue().tag() : 0;
    }

    public int runCount() {
        return runs.size();
    }

    /** Streams the pieces of runs clipped to {@code [from, to)}, in offset order; gaps are skipped. */
    public void forEachPiece(final long from, final long to, final PieceVisitor visitor) {
        if (from >= to) {
            return;
        }
        final Map.Entry<Long, Run> first = runs.floorEntry(from);
        final Long startKey = first != null && first.getKey() + first.getValue().lengthBytes() > from
            ? first.getKey() : Long.valueOf(from);
        for (final Map.Entry<Long, Run> e : runs.subMap(startKey, true, to, false).entrySet()) {
            final long s = e.getKey();
            final Run r = e.getValue();
            final long a = Math.max(s, from);
            final long b = Math.min(s + r.lengthBytes(), to);
            if (a < b) {
                visitor.piece(a, b - a, r.tag(), r.pos() + (a - s));
            }
        }
    }

    /**
     * XXH3-64 of the provenance of {@code [from, from + lengthBytes)}, relative to {@code from}: for each maximal
     * piece of content (adjacent runs that continue one another, same tag and consecutive positions, count as one,
     * since they hold the same bytes), its offset from {@code from}, its length, tag and position; for each
     * never-written gap, its offset and length under a different marker. Two ranges whose content is the same
     * relative to their starts hash alike wherever they are and however their runs are split.
     */
    public long contentHash(final long from, final long lengthBytes) {
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("negative length " + lengthBytes);
        }
        if (hashStream == null) {
            hashStream = Hashing.xxh3_64().hashStream();
        }
        final HashStream64 h = hashStream.reset();
        final Normalizer n = new Normalizer(h, from);
        forEachPiece(from, from + lengthBytes, n);
        n.finish(from + lengthBytes);
        return h.putLong(lengthBytes).getAsLong();
    }

    /** Merges continuing pieces and emits gaps, so the hash depends on content, not on how runs are split. */
    private static final class Normalizer implements PieceVisitor {
        private final HashStream64 hash;
        private final long base;
        private long start;
        private long length;
        private long tag;
        private long pos;
        private long end;

        Normalizer(final HashStream64 hash, final long base) {
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

    /** Pieces {start, length, tag, pos} of runs clipped to {@code [from, to)}, in order. */
    private List<long[]> pieces(final long from, final long to) {
        final List<long[]> out = new ArrayList<>();
        forEachPiece(from, to, (a, len, tag, pos) -> out.add(new long[] {a, len, tag, pos}));
        return out;
    }

    private void splitAt(final long at) {
        final Map.Entry<Long, Run> e = runs.floorEntry(at);
        if (e == null || e.getKey() == at) {
            return;
        }
        final long s = e.getKey();
        final Run r = e.getValue();
        if (s + r.lengthBytes() <= at) {
            return;
        }
        final long left = at - s;
        runs.put(s, new Run(left, r.tag(), r.pos()));
        runs.put(at, new Run(r.lengthBytes() - left, r.tag(), r.pos() + left));
    }
}
