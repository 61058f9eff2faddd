package dev.kvtier.sim.memory;

/**
 * {@link RunMap}'s runs in start order: a list of blocks, each a sorted array of up to {@value #RUNS_PER_BLOCK} runs
 * of four longs (start, length, tag, position), with each block's first start kept apart for the binary search. A
 * sorted map of start to run, without boxing or a node per run: look-ups are two binary searches, scans walk arrays,
 * and an insert or a removal moves at most one block's runs (a full block splits in two, an emptied one goes).
 *
 * <p>A position is a cursor {@code block << 32 | index}; -1 is none. A cursor is valid until the next change.
 *
 * <p>The block list, its pool and the copy on write that lets two maps share blocks are {@link BlockList}'s.
 */
final class RunBlocks extends BlockList {
    private static final long NONE = -1;

    /** An empty list of runs whose blocks come from and go to {@code pool}. */
    RunBlocks(final BlockPool pool) {
        super(pool);
    }

    /** An empty list of runs with a pool of its own. */
    RunBlocks() {
        this(new BlockPool(RUNS_PER_BLOCK * LONGS));
    }

    int size() {
        return size;
    }

    long start(final long cursor) {
        return blocks[block(cursor)][index(cursor) * LONGS];
    }

    long length(final long cursor) {
        return blocks[block(cursor)][index(cursor) * LONGS + 1];
    }

    long tag(final long cursor) {
        return blocks[block(cursor)][index(cursor) * LONGS + 2];
    }

    long pos(final long cursor) {
        return blocks[block(cursor)][index(cursor) * LONGS + 3];
    }

    void setLength(final long cursor, final long lengthBytes) {
        mayHoldEmpty |= lengthBytes == 0;
        own(block(cursor))[index(cursor) * LONGS + 1] = lengthBytes;
    }

    /** The end of the last run (the greatest start's), or {@code Long.MIN_VALUE} when there is none. */
    long lastEnd() {
        if (blockCount == 0) {
            return Long.MIN_VALUE;
        }
        final int b = blockCount - 1;
        final int at = (sizes[b] - 1) * LONGS;
        return blocks[b][at] + blocks[b][at + 1];
    }

    /** Becomes a copy of {@code src} without its empty runs, in full blocks: one pass, no search. */
    void copyNonEmpty(final BlockList src) {
        // This map's own blocks go to its pool and come back as the copy's, so a crash's revert allocates little.
        releaseAll(Math.max(16, src.blockCount));
        long[] to = null;
        for (int b = 0; b < src.blockCount; b++) {
            final long[] from = src.blocks[b];
            for (int i = 0; i < src.sizes[b]; i++) {
                if (from[i * LONGS + 1] == 0) {
                    continue;
                }
                if (to == null || sizes[blockCount - 1] == RUNS_PER_BLOCK) {
                    addBlock(blockCount);
                    to = blocks[blockCount - 1];
                    firsts[blockCount - 1] = from[i * LONGS];
                }
                System.arraycopy(from, i * LONGS, to, sizes[blockCount - 1] * LONGS, LONGS);
                sizes[blockCount - 1]++;
                size++;
            }
        }
    }

    /** Whether a run of no bytes may be here ({@link #shareFrom} gives a copy with them, unlike copyNonEmpty). */
    boolean mayHoldEmpty() {
        return mayHoldEmpty;
    }

    /** The first run, or -1. */
    long first() {
        return blockCount == 0 ? NONE : cursor(0, 0);
    }

    /** The run after {@code cursor}, or -1. */
    long next(final long cursor) {
        final int b = block(cursor);
        final int i = index(cursor) + 1;
        if (i < sizes[b]) {
            return cursor(b, i);
        }
        return b + 1 < blockCount ? cursor(b + 1, 0) : NONE;
    }

    /** The run with the greatest start at or below {@code key}, or -1. */
    long floor(final long key) {
        final int b = floorBlock(key);
        if (b < 0) {
            return NONE;
        }
        final long[] data = blocks[b];
        int lo = 0;
        int hi = sizes[b] - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (data[mid * LONGS] <= key) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return cursor(b, lo);
    }

    /** The block whose first start is the greatest at or below {@code key}, or -1. */
    private int floorBlock(final long key) {
        int lo = 0;
        int hi = blockCount - 1;
        if (hi < 0 || firsts[0] > key) {
            return -1;
        }
        final int h = hint;
        if (h < blockCount && firsts[h] <= key && (h == hi || firsts[h + 1] > key)) {
            return h;
        }
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (firsts[mid] <= key) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        hint = lo;
        return lo;
    }

    /** Sets the run at {@code start} (replacing the one there, as a map's put does). */
    void put(final long start, final long lengthBytes, final long tag, final long pos) {
        final long f = floor(start);
        if (f >= 0 && start(f) == start) {
            mayHoldEmpty |= lengthBytes == 0;
            final long[] data = own(block(f));
            final int at = index(f) * LONGS;
            data[at + 1] = lengthBytes;
            data[at + 2] = tag;
            data[at + 3] = pos;
            return;
        }
        insertAfter(f, start, lengthBytes, tag, pos);
    }

    /**
     * Inserts a run right after {@code cursor} (-1: before every run); its start must keep the order. Returns the new
     * run's cursor.
     */
    long insertAfter(final long cursor, final long start, final long lengthBytes, final long tag, final long pos) {
        int b;
        int i;
        if (cursor < 0) {
            if (blockCount == 0) {
                addBlock(0);
            }
            b = 0;
            i = 0;
        } else {
            b = block(cursor);
            i = index(cursor) + 1;
        }
        if (sizes[b] == RUNS_PER_BLOCK && i == RUNS_PER_BLOCK && b + 1 < blockCount
            && sizes[b + 1] < RUNS_PER_BLOCK) {
            // Past the end of a full block: the front of the next one, if it has room.
            b++;
            i = 0;
        } else if (sizes[b] == RUNS_PER_BLOCK && i == RUNS_PER_BLOCK) {
            // Appending past a full block (runs written in order): a new block, so blocks fill up whole.
            addBlock(b + 1);
            b++;
            i = 0;
        } else if (sizes[b] == RUNS_PER_BLOCK) {
            splitBlock(b);
            if (i > RUNS_PER_BLOCK / 2) {
                i -= RUNS_PER_BLOCK / 2;
                b++;
            }
        }
        mayHoldEmpty |= lengthBytes == 0;
        final long[] data = own(b);
        System.arraycopy(data, i * LONGS, data, (i + 1) * LONGS, (sizes[b] - i) * LONGS);
        data[i * LONGS] = start;
        data[i * LONGS + 1] = lengthBytes;
        data[i * LONGS + 2] = tag;
        data[i * LONGS + 3] = pos;
        sizes[b]++;
        size++;
        if (i == 0) {
            firsts[b] = start;
        }
        return cursor(b, i);
    }

    /**
     * Inserts {@code count} runs (four longs each in {@code src}, in start order) right after {@code cursor} (-1:
     * before every run); their starts must keep the order. The block there keeps its runs before the cursor and takes
     * what fits; the rest and its old tail go into new full blocks, added with one shift of the block list.
     */
    void insertAllAfter(final long cursor, final long[] src, final int count) {
        if (count <= 0) {
            return;
        }
        if (blockCount == 0) {
            addBlock(0);
        }
        final int b = cursor < 0 ? 0 : block(cursor);
        final int i = cursor < 0 ? 0 : index(cursor) + 1;
        for (int k = 0; k < count && !mayHoldEmpty; k++) {
            mayHoldEmpty = src[k * LONGS + 1] == 0;
        }
        final long[] data = own(b);
        final int tail = sizes[b] - i;
        if (sizes[b] + count <= RUNS_PER_BLOCK) {
            System.arraycopy(data, i * LONGS, data, (i + count) * LONGS, tail * LONGS);
            System.arraycopy(src, 0, data, i * LONGS, count * LONGS);
            sizes[b] += count;
        } else {
            // The new runs then the old tail, in order: as many as fit stay here, the rest fill new blocks. Only the
            // tail is set aside first (it is overwritten here); the new runs go straight to their blocks.
            final long[] kept = spill(tail * LONGS);
            System.arraycopy(data, i * LONGS, kept, 0, tail * LONGS);
            final int here = RUNS_PER_BLOCK - i;
            copyJoined(src, count, kept, 0, data, i, here);
            sizes[b] = RUNS_PER_BLOCK;
            final int rest = count + tail - here;
            final int added = (rest + RUNS_PER_BLOCK - 1) / RUNS_PER_BLOCK;
            addBlocks(b + 1, added);
            for (int k = 0; k < added; k++) {
                final int n = Math.min(RUNS_PER_BLOCK, rest - k * RUNS_PER_BLOCK);
                final long[] to = blocks[b + 1 + k];
                copyJoined(src, count, kept, here + k * RUNS_PER_BLOCK, to, 0, n);
                sizes[b + 1 + k] = n;
                firsts[b + 1 + k] = to[0];
            }
        }
        if (i == 0) {
            firsts[b] = data[0];
        }
        size += count;
    }

    /**
     * Appends the pieces of the runs in {@code [from, to)} (each clipped to it; a run of no bytes there as it is) to
     * {@code out}, scanning from {@code cursor} (-1: none); returns the cursor of the first run that ends after
     * {@code from} (or is empty at or after it), from which a scan of a later range may start (-1: none).
     */
    long appendClipped(final long cursor, final long from, final long to, final RunList out) {
        if (cursor < 0) {
            return NONE;
        }
        int b = block(cursor);
        int i = index(cursor);
        long[] data = blocks[b];
        // Skip the runs that end at or before from (a run of no bytes at or after it stays).
        while (data[i * LONGS] + data[i * LONGS + 1] <= from
            && !(data[i * LONGS + 1] == 0 && data[i * LONGS] >= from)) {
            if (++i == sizes[b]) {
                if (++b == blockCount) {
                    return NONE;
                }
                i = 0;
                data = blocks[b];
            }
        }
        final long found = cursor(b, i);
        while (data[i * LONGS] < to) {
            final long s = data[i * LONGS];
            final long length = data[i * LONGS + 1];
            final long lo = Math.max(s, from);
            final long hi = Math.min(s + length, to);
            if (length == 0 ? s >= from : lo < hi) {
                out.add(lo, hi - lo, data[i * LONGS + 2], data[i * LONGS + 3] + (lo - s));
            }
            if (++i == sizes[b]) {
                if (++b == blockCount) {
                    break;
                }
                i = 0;
                data = blocks[b];
            }
        }
        return found;
    }

    /**
     * Copies {@code n} runs, from run {@code at} on, of the first {@code count} runs of {@code src} followed by those
     * of {@code kept}, to {@code dst} from run {@code dstAt} on.
     */
    private static void copyJoined(final long[] src, final int count, final long[] kept, final int at,
                                   final long[] dst, final int dstAt, final int n) {
        final int fromSrc = Math.min(n, Math.max(0, count - at));
        if (fromSrc > 0) {
            System.arraycopy(src, at * LONGS, dst, dstAt * LONGS, fromSrc * LONGS);
        }
        if (n > fromSrc) {
            System.arraycopy(kept, (at + fromSrc - count) * LONGS, dst, (dstAt + fromSrc) * LONGS,
                (n - fromSrc) * LONGS);
        }
    }

    /** Removes every run whose start is in {@code [from, to)}: trims the end blocks, drops the ones between at once. */
    void removeStartsIn(final long from, final long to) {
        final long f = floor(from);
        final long c = f < 0 ? first() : start(f) >= from ? f : next(f);
        final long last = floor(to - 1);
        if (c < 0 || last < 0 || start(c) >= to || last < c) {
            return;
        }
        final int b0 = block(c);
        final int b1 = block(last);
        if (b0 == b1) {
            removeIn(b0, index(c), index(last) + 1);
            if (sizes[b0] == 0) {
                removeBlocks(b0, b0 + 1);
            }
            return;
        }
        removeIn(b1, 0, index(last) + 1);
        removeIn(b0, index(c), sizes[b0]);
        final int dropFrom = sizes[b0] == 0 ? b0 : b0 + 1;
        final int dropTo = sizes[b1] == 0 ? b1 + 1 : b1;
        removeBlocks(dropFrom, dropTo);
    }

    /** Removes runs {@code [i, j)} of block {@code b}, which stays (even empty). */
    private void removeIn(final int b, final int i, final int j) {
        final long[] data = j < sizes[b] ? own(b) : blocks[b]; // cutting the tail off changes no run
        System.arraycopy(data, j * LONGS, data, i * LONGS, (sizes[b] - j) * LONGS);
        sizes[b] -= j - i;
        size -= j - i;
        if (i == 0 && sizes[b] > 0) {
            firsts[b] = data[0];
        }
    }
}
