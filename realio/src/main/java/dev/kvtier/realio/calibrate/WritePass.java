package dev.kvtier.realio.calibrate;

/**
 * A timed write pass ({@link IoMeter#pass}): each write's completion (nanoseconds after the pass began) and size, in
 * offset order, and the pass's whole time (its pauses included).
 */
public final class WritePass {
    private final long[] doneNs;
    private final long[] sizes;
    private final long writeNs;

    WritePass(final long[] doneNs, final long[] sizes, final long writeNs) {
        this.doneNs = doneNs.clone();
        this.sizes = sizes.clone();
        this.writeNs = writeNs;
    }

    /** How many writes. */
    public int writes() {
        return doneNs.length;
    }

    /** When write {@code i} completed, nanoseconds after the pass began. */
    public long doneNs(final int i) {
        return doneNs[i];
    }

    /** Bytes of write {@code i}. */
    public long bytes(final int i) {
        return sizes[i];
    }

    /** The pass's whole time. */
    public long writeNs() {
        return writeNs;
    }
}
