package dev.kvtier.harness.profile;

import java.util.ArrayDeque;

/**
 * The timing of a disk's volatile write-back cache, as {@link DeviceProfile#drainBytesPerSec} and
 * {@link DeviceProfile#drainDelayNs} describe it; pure arithmetic on the times it is given (the simulator's disk and
 * the calibration's fit of the two numbers both use it).
 *
 * <p>Every written byte reaches stable media at the drain rate, in the order written. On its own the cache starts
 * writing a byte back only {@code drainDelayNs} after the write that brought it completed (0: at once). A FLUSH
 * makes it write back everything it still holds, at once and at the same rate, and completes when that is done.
 * So with a delay, a FLUSH right after a burst of writes costs the whole burst at the drain rate, and one that comes
 * a delay and a drain's time later costs nothing. With a delay of 0 this is a cache that drains continuously and a
 * FLUSH that waits for it.
 */
public final class WriteBack {
    private final long bytesPerSec;
    private final long delayNs;
    /** Written bytes the cache may still hold, in the order written (used only with a delay). */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long drainedAtNs;

    /** One write's bytes: completed at {@code writtenNs}, drained on its own from {@code startNs} to {@code endNs}. */
    private record Held(long writtenNs, long startNs, long endNs) {}

    /**
     * @param bytesPerSec drain rate (positive)
     * @param delayNs     how long after a write completes the cache starts writing its bytes back on its own (>= 0)
     */
    public WriteBack(final long bytesPerSec, final long delayNs) {
        if (bytesPerSec <= 0 || delayNs < 0) {
            throw new IllegalArgumentException("write-back needs a positive drain rate and a delay >= 0, got "
                + bytesPerSec + " B/s and " + delayNs + " ns");
        }
        this.bytesPerSec = bytesPerSec;
        this.delayNs = delayNs;
    }

    /**
     * A write of {@code bytes} completes at {@code writtenNs} (booked at {@code nowNs}: no FLUSH will ever be asked
     * about a moment before it).
     */
    public void wrote(final long nowNs, final long writtenNs, final long bytes) {
        final long start = Math.max(drainedAtNs, writtenNs + delayNs);
        drainedAtNs = start + DeviceProfile.transferNs(bytes, bytesPerSec);
        if (delayNs > 0) {
            while (!held.isEmpty() && held.peekFirst().endNs() <= nowNs) {
                held.removeFirst();
            }
            held.addLast(new Held(writtenNs, start, drainedAtNs));
        }
    }

    /**
     * A FLUSH at {@code atNs}: when everything written before it (including writes booked to complete later) has
     * reached stable media. Everything is drained then.
     */
    public long flush(final long atNs) {
        if (delayNs == 0) {
            return Math.max(atNs, drainedAtNs);
        }
        long cursor = atNs;
        for (final Held h : held) {
            if (h.endNs() > atNs) {
                final long left = h.endNs() - Math.max(h.startNs(), atNs);
                cursor = Math.max(cursor, h.writtenNs()) + left;
            }
        }
        held.clear();
        drainedAtNs = cursor;
        return cursor;
    }

    /** Power loss: nothing held, nothing in progress. */
    public void reset() {
        held.clear();
        drainedAtNs = 0;
    }
}
