package dev.kvtier.sim.memory;

import java.util.Arrays;

/** A growable array of runs, four longs each (start, length, tag, position); reused, single-threaded. */
final class RunList {
    long[] a = new long[0];
    int n;

    RunList reset() {
        n = 0;
        return this;
    }

    void add(final long start, final long lengthBytes, final long tag, final long pos) {
        if (n + 4 > a.length) {
            a = Arrays.copyOf(a, Math.max(64, a.length * 2));
        }
        a[n] = start;
        a[n + 1] = lengthBytes;
        a[n + 2] = tag;
        a[n + 3] = pos;
        n += 4;
    }
}
