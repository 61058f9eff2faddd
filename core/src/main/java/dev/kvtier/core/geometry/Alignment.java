package dev.kvtier.core.geometry;

/** The one alignment rule of the core: every L2 offset and length and every L1 lease is a multiple of 4096. */
public final class Alignment {
    /** The alignment unit, in bytes (O_DIRECT's logical block on the disks kvtier targets). */
    public static final long BYTES = 4096;

    private Alignment() {}

    /** Rounds {@code bytes} up to the next multiple of 4096; rejects negative sizes. */
    public static long up(final long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("size must not be negative: " + bytes);
        }
        return Math.addExact(bytes, BYTES - 1) & -BYTES;
    }

    /** Rounds {@code bytes} down to a multiple of 4096. */
    public static long down(final long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("size must not be negative: " + bytes);
        }
        return bytes & -BYTES;
    }

    /** True when {@code value} is a multiple of 4096. */
    public static boolean isAligned(final long value) {
        return (value & (BYTES - 1)) == 0;
    }

    /** Throws with {@code what} in the message unless {@code value} is a non-negative multiple of 4096. */
    public static long requireAligned(final String what, final long value) {
        if (value < 0 || !isAligned(value)) {
            throw new IllegalArgumentException(what + " must be a non-negative multiple of 4096, got " + value);
        }
        return value;
    }
}
