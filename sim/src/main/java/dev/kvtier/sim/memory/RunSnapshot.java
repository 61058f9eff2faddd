package dev.kvtier.sim.memory;

/**
 * The runs of a range of a {@link RunMap}, frozen ({@link RunMap#snapshot}): what a device's volatile write cache
 * keeps of a write until it is durable. A flat array of runs, four longs each (start, length, tag, position), in
 * start order, each at least one byte: 32 bytes a run where a map takes a block of 4 KiB and a dozen objects. A map
 * copies from it ({@link RunMap#copyFrom(RunSnapshot, long, long, long)}, {@link RunMap#copyPieces(RunSnapshot,
 * long, long, long[], int)}) run for run as from the map it was taken of.
 */
public final class RunSnapshot {
    private final long[] runs;
    /** The run the last look-up found (a hint; any value is safe). */
    private int hint;

    RunSnapshot(final long[] runs) {
        this.runs = runs;
    }

    /**
     * The first run that ends after {@code from} ({@code count} if none): the runs are disjoint, in order and not
     * empty, so their ends are too. The search starts at the last answer (a torn write's pieces come in order, many
     * in one run or a few runs on): when the answer lies after it, steps of 1, 2, 4... bracket it first.
     */
    private int firstEndingAfter(final long from, final int count) {
        final int h = hint;
        int lo = 0;
        int hi = count; // the answer is in [lo, hi]; hi == count: none
        if (h < count && end(h) > from) {
            if (h == 0 || end(h - 1) <= from) {
                return h;
            }
            hi = h;
        } else if (h < count) {
            lo = h + 1;
            int probe = lo;
            for (int step = 1; probe < count && end(probe) <= from; step <<= 1) {
                lo = probe + 1;
                probe = lo + step;
            }
            hi = Math.min(probe, count);
        }
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (end(mid) <= from) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        hint = lo;
        return lo;
    }

    private long end(final int run) {
        return runs[run * 4] + runs[run * 4 + 1];
    }

    /** Runs held. */
    public int runCount() {
        return runs.length / BlockList.LONGS;
    }

    /**
     * As {@link RunMap}'s own: the pieces of {@code [from, to)} (each run clipped to it) into {@code into}'s scratch
     * array; returns the longs written.
     */
    int gather(final long from, final long to, final RunMap into) {
        if (from >= to) {
            return 0;
        }
        final int count = runCount();
        final int lo = firstEndingAfter(from, count);
        int end = lo;
        while (end < count && runs[end * 4] < to) {
            end++;
        }
        final long[] out = into.scratch((end - lo) * 4);
        int n = 0;
        for (int k = lo; k < end; k++) {
            // Each of these ends after from and starts before to, so its piece holds at least one byte.
            final long s = runs[k * 4];
            final long a = Math.max(s, from);
            out[n] = a;
            out[n + 1] = Math.min(s + runs[k * 4 + 1], to) - a;
            out[n + 2] = runs[k * 4 + 2];
            out[n + 3] = runs[k * 4 + 3] + (a - s);
            n += 4;
        }
        return n;
    }

    /**
     * As {@link #gather}, but appends each piece to {@code out}, its start moved by {@code shift}: a map copying
     * pieces from a snapshot puts them in its list of new runs without a second copy.
     */
    void gatherInto(final long from, final long to, final long shift, final RunList out) {
        if (from >= to) {
            return;
        }
        final int count = runCount();
        int k = firstEndingAfter(from, count);
        for (; k < count && runs[k * 4] < to; k++) {
            // Each of these ends after from and starts before to, so its piece holds at least one byte.
            final long s = runs[k * 4];
            final long a = Math.max(s, from);
            out.add(a + shift, Math.min(s + runs[k * 4 + 1], to) - a, runs[k * 4 + 2], runs[k * 4 + 3] + (a - s));
        }
        if (k > 0) {
            hint = k - 1; // the last run this range touched: where the next, later one begins or ends
        }
    }
}
