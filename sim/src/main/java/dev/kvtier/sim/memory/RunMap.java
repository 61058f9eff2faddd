package dev.kvtier.sim.memory;

import com.dynatrace.hash4j.hashing.HashStream64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.Arrays;

/**
 * The provenance of a byte space (a memory region or the L2 file) as disjoint runs. A run {@code [start, start +
 * length)} holds the content of {@code tag} from position {@code pos}: byte {@code start + i} is byte
 * {@code pos + i} of that tag's content. Bytes outside every run were never written (tag 0). Runs are not merged,
 * so the map stays proportional to the number of distinct writes, not to the bytes: 225 GiB of slots simulate in
 * a few hundred thousand runs.
 *
 * <p>The runs are kept in start order in {@link RunBlocks} (sorted blocks of primitive arrays: a two-level B-tree
 * without boxing), so a look-up is two binary searches and a scan walks arrays; a crash that tears a write into a
 * million sector runs stays cheap. The operations are the ones a sorted map of start to run would give, run for run.
 */
public final class RunMap {
    /** Receives pieces of runs, in offset order. */
    @FunctionalInterface
    public interface PieceVisitor {
        /** {@code [start, start + lengthBytes)} holds {@code tag} from position {@code pos}. */
        void piece(long start, long lengthBytes, long tag, long pos);
    }

    private final RunBlocks runs;
    /** Reused by {@link #contentHash} (one stream per map; the simulator is single-threaded). */
    private HashStream64 hashStream;
    /** Pieces gathered by {@link #copyFrom}, four longs each (reused; single-threaded; grown when first used). */
    private long[] scratch = new long[0];
    /** The runs that replace a range, for {@link #copyPieces} (reused). */
    private final RunList merged = new RunList();

    /** An empty map (every byte never written). */
    public RunMap() {
        this(new RunBlocks());
    }

    private RunMap(final RunBlocks runs) {
        this.runs = runs;
    }

    /**
     * A new empty map that shares this one's pool of free blocks: a device's visible and durable images, where a
     * crash's revert frees blocks in one that the other's next writes take.
     */
    public RunMap sibling() {
        return new RunMap(new RunBlocks(runs.pool));
    }

    /**
     * Forgets every run of {@code maps} and gives their blocks to the thread's reserve, where the next maps made on
     * this thread take them before allocating: for a run that is over (an exploration's seed), so the next one in
     * this JVM reuses its storage. Only for maps that share blocks with none but one another (one device's images:
     * {@link #copyAllFrom} is their only sharing). Nothing of them can show in another map (a reused block's old runs
     * are never read); they are empty afterwards.
     */
    public static void recycle(final RunMap... maps) {
        BlockList.recycle(Arrays.stream(maps).map(m -> m.runs).toArray(BlockList[]::new));
    }

    /** Forgets {@code [from, to)}, splitting runs that cross either end. */
    public void clear(final long from, final long to) {
        if (from >= to) {
            return;
        }
        splitAt(from);
        splitAt(to);
        runs.removeStartsIn(from, to);
    }

    /** Records that {@code [start, start + length)} holds {@code tag} from position {@code pos}. */
    public void put(final long start, final long lengthBytes, final long tag, final long pos) {
        if (lengthBytes > 0 && !runs.mayHoldEmpty() && putWithoutClearing(start, lengthBytes, tag, pos)) {
            return;
        }
        clear(start, start + lengthBytes);
        runs.put(start, lengthBytes, tag, pos);
    }

    /**
     * The usual puts, with one search instead of clear's four: a range no run overlaps (an insert after the run
     * before it), or exactly one run's range (that run rewritten). The runs come out as clear-then-put leaves them.
     * False, having changed nothing, for any other range. Needs a range of at least a byte and no empty run.
     */
    private boolean putWithoutClearing(final long start, final long lengthBytes, final long tag, final long pos) {
        final long f = runs.floor(start);
        final long after = f < 0 ? runs.first() : runs.next(f);
        if (after >= 0 && runs.start(after) < start + lengthBytes) {
            return false;
        }
        if (f < 0 || runs.start(f) + runs.length(f) <= start) {
            runs.insertAfter(f, start, lengthBytes, tag, pos);
            return true;
        }
        if (runs.start(f) == start && runs.length(f) == lengthBytes) {
            runs.put(start, lengthBytes, tag, pos);
            return true;
        }
        return false;
    }

    /** Copies the provenance of {@code src [srcFrom, srcFrom + length)} to {@code [dstFrom, ...)} of this map. */
    public void copyFrom(final RunMap src, final long srcFrom, final long dstFrom, final long lengthBytes) {
        insertGathered(src.gather(srcFrom, srcFrom + lengthBytes, this), srcFrom, dstFrom, lengthBytes);
    }

    /** As {@link #copyFrom(RunMap, long, long, long)} from the map {@code src} was taken of, when it was taken. */
    public void copyFrom(final RunSnapshot src, final long srcFrom, final long dstFrom, final long lengthBytes) {
        insertGathered(src.gather(srcFrom, srcFrom + lengthBytes, this), srcFrom, dstFrom, lengthBytes);
    }

    /** The runs of {@code [from, from + lengthBytes)}, clipped to it, frozen (this map may change afterwards). */
    public RunSnapshot snapshot(final long from, final long lengthBytes) {
        final int n = gather(from, from + lengthBytes, this); // may grow the scratch array: read it after
        return new RunSnapshot(Arrays.copyOf(scratch, n));
    }

    /** Clears {@code [dstFrom, +lengthBytes)} and puts the {@code count} longs of pieces gathered from srcFrom on. */
    private void insertGathered(final int count, final long srcFrom, final long dstFrom, final long lengthBytes) {
        clear(dstFrom, dstFrom + lengthBytes);
        if (count == 0) {
            return;
        }
        // The range holds no run now and the pieces (at least a byte each) lie in it in order, so a put of each
        // would find the one before it as its floor: each goes in right after the last, with no search.
        final long[] p = scratch;
        long c = runs.floor(dstFrom);
        for (int i = 0; i < count; i += 4) {
            c = runs.insertAfter(c, dstFrom + (p[i] - srcFrom), p[i + 1], p[i + 2], p[i + 3]);
        }
    }

    /** The scratch array with room for at least {@code longs} longs (its content stale). */
    long[] scratch(final int longs) {
        if (scratch.length < longs) {
            scratch = new long[Math.max(64, Math.max(longs, 2 * scratch.length))];
        }
        return scratch;
    }

    /**
     * The same as {@code copyFrom(src, srcBase + f, dstBase + f, n)} for each piece {@code (f, n)} of {@code pieces}
     * (pairs of longs, {@code pieceCount} of them, in ascending order, disjoint, each at least one byte), run for run,
     * in one pass: the runs between the pieces are left as those calls leave them (cut at the pieces' ends), and
     * the pieces' runs go in with one insertion instead of a search and a block split each. A crash that tears a
     * write into thousands of sectors persists it this way.
     */
    public void copyPieces(final RunMap src, final long srcBase, final long dstBase, final long[] pieces,
                           final int pieceCount) {
        checkPieces(pieces, pieceCount);
        if (src == this) {
            for (int k = 0; k < pieceCount; k++) {
                copyFrom(src, srcBase + pieces[2 * k], dstBase + pieces[2 * k], pieces[2 * k + 1]);
            }
            return;
        }
        copyPieces((f, t, shift, out) -> {
            final int n = src.gather(f, t, this);
            for (int i = 0; i < n; i += 4) {
                out.add(scratch[i] + shift, scratch[i + 1], scratch[i + 2], scratch[i + 3]);
            }
        }, srcBase, dstBase, pieces, pieceCount);
    }

    /** As {@link #copyPieces(RunMap, long, long, long[], int)} from the map {@code src} was taken of. */
    public void copyPieces(final RunSnapshot src, final long srcBase, final long dstBase, final long[] pieces,
                           final int pieceCount) {
        checkPieces(pieces, pieceCount);
        copyPieces(src::gatherInto, srcBase, dstBase, pieces, pieceCount);
    }

    /** Appends the pieces of {@code [from, to)} of a source, each moved by {@code shift}, to {@code out}. */
    @FunctionalInterface
    private interface Gatherer {
        void gather(long from, long to, long shift, RunList out);
    }

    private void copyPieces(final Gatherer src, final long srcBase, final long dstBase, final long[] pieces,
                            final int pieceCount) {
        if (pieceCount == 0) {
            return;
        }
        final long from = dstBase + pieces[0];
        final long to = dstBase + pieces[2 * pieceCount - 2] + pieces[2 * pieceCount - 1];
        final RunList out = merged.reset();
        // The old runs are read in place (cursor j), from the one at or below from on: nothing changes them until
        // the range is cleared below.
        final long f = runs.floor(from);
        long j = f >= 0 ? f : runs.first();
        for (int k = 0; k < pieceCount; k++) {
            final long pieceFrom = srcBase + pieces[2 * k];
            src.gather(pieceFrom, pieceFrom + pieces[2 * k + 1], dstBase - srcBase, out);
            if (k + 1 < pieceCount) {
                // The gap up to the next piece keeps the old runs, cut at its ends (as clear() at each piece cuts).
                final long gapFrom = dstBase + pieces[2 * k] + pieces[2 * k + 1];
                final long gapTo = dstBase + pieces[2 * k + 2];
                j = runs.appendClipped(j, gapFrom, gapTo, out);
            }
        }
        clear(from, to);
        runs.insertAllAfter(runs.floor(from), out.a, out.n / 4);
    }

    private static void checkPieces(final long[] pieces, final int pieceCount) {
        if (pieceCount < 0 || 2L * pieceCount > pieces.length) {
            throw new IllegalArgumentException(pieceCount + " pieces in an array of " + pieces.length + " longs");
        }
        long end = Long.MIN_VALUE;
        for (int k = 0; k < pieceCount; k++) {
            if (pieces[2 * k + 1] <= 0 || pieces[2 * k] < end) {
                throw new IllegalArgumentException("piece " + k + " [" + pieces[2 * k] + ", +" + pieces[2 * k + 1]
                    + ") is empty, or not after the one before it (which ends at " + end + ")");
            }
            end = pieces[2 * k] + pieces[2 * k + 1];
        }
    }

    /**
     * The same as {@code copyFrom(src, 0, 0, limitBytes)}, in one pass when both maps lie within
     * {@code [0, limitBytes)} (a device's images: a crash reverts the visible image to the durable one this way).
     */
    public void copyAllFrom(final RunMap src, final long limitBytes) {
        final long srcFirst = src.runs.size() == 0 ? 0 : src.runs.start(src.runs.first());
        final long dstFirst = runs.size() == 0 ? 0 : runs.start(runs.first());
        if (src == this || srcFirst < 0 || dstFirst < 0 || src.runs.lastEnd() > limitBytes
            || runs.lastEnd() > limitBytes) {
            copyFrom(src, 0, 0, limitBytes);
            return;
        }
        if (src.runs.mayHoldEmpty()) {
            runs.copyNonEmpty(src.runs);
        } else {
            runs.shareFrom(src.runs); // the same runs, sharing the blocks until either map changes one
        }
    }

    /** Puts the pieces of {@code [from, to)} into {@code into}'s scratch array; returns the longs written. */
    private int gather(final long from, final long to, final RunMap into) {
        if (from >= to) {
            return 0;
        }
        int n = 0;
        long[] out = into.scratch;
        for (long c = firstCovering(from); c >= 0; c = runs.next(c)) {
            final long s = runs.start(c);
            if (s >= to) {
                break;
            }
            final long a = Math.max(s, from);
            final long b = Math.min(s + runs.length(c), to);
            if (a < b) {
                if (n + 4 > out.length) {
                    out = Arrays.copyOf(out, Math.max(64, out.length * 2));
                    into.scratch = out;
                }
                out[n] = a;
                out[n + 1] = b - a;
                out[n + 2] = runs.tag(c);
                out[n + 3] = runs.pos(c) + (a - s);
                n += 4;
            }
        }
        return n;
    }

    /**
     * The first offset in {@code [from, from + length)} whose content is not byte {@code offset - from} of
     * {@code tag}, or -1.
     */
    public long firstMismatch(final long from, final long lengthBytes, final long tag) {
        final long to = from + lengthBytes;
        long expected = from;
        if (from < to) {
            for (long c = firstCovering(from); c >= 0; c = runs.next(c)) {
                final long s = runs.start(c);
                if (s >= to) {
                    break;
                }
                final long a = Math.max(s, from);
                final long b = Math.min(s + runs.length(c), to);
                if (a >= b) {
                    continue;
                }
                if (a != expected) {
                    return expected;
                }
                if (runs.tag(c) != tag || runs.pos(c) + (a - s) != a - from) {
                    return a;
                }
                expected = b;
            }
        }
        return expected == to ? -1 : expected;
    }

    /** The tag at {@code offset}, or 0 if never written. */
    public long tagAt(final long offset) {
        final long c = runs.floor(offset);
        return c >= 0 && runs.start(c) + runs.length(c) > offset ? runs.tag(c) : 0;
    }

    public int runCount() {
        return runs.size();
    }

    /** Streams the pieces of runs clipped to {@code [from, to)}, in offset order; gaps are skipped. */
    public void forEachPiece(final long from, final long to, final PieceVisitor visitor) {
        if (from >= to) {
            return;
        }
        for (long c = firstCovering(from); c >= 0; c = runs.next(c)) {
            final long s = runs.start(c);
            if (s >= to) {
                break;
            }
            final long a = Math.max(s, from);
            final long b = Math.min(s + runs.length(c), to);
            if (a < b) {
                visitor.piece(a, b - a, runs.tag(c), runs.pos(c) + (a - s));
            }
        }
    }

    /**
     * The cursor of the run holding {@code from} if one does, else of the first run starting after it (-1 if none):
     * where a scan of {@code [from, ...)} begins.
     */
    private long firstCovering(final long from) {
        final long f = runs.floor(from);
        if (f >= 0 && runs.start(f) + runs.length(f) > from) {
            return f;
        }
        if (f >= 0) {
            return runs.next(f);
        }
        return runs.first();
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
        final ContentNormalizer n = new ContentNormalizer(h, from);
        forEachPiece(from, from + lengthBytes, n);
        n.finish(from + lengthBytes);
        return h.putLong(lengthBytes).getAsLong();
    }

    private void splitAt(final long at) {
        final long c = runs.floor(at);
        if (c < 0 || runs.start(c) == at) {
            return;
        }
        final long s = runs.start(c);
        final long length = runs.length(c);
        if (s + length <= at) {
            return;
        }
        final long left = at - s;
        final long tag = runs.tag(c);
        final long pos = runs.pos(c);
        runs.setLength(c, left);
        runs.insertAfter(c, at, length - left, tag, pos + left);
    }
}
