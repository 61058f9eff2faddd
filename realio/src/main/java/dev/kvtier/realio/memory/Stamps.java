package dev.kvtier.realio.memory;

/**
 * The content of a stamped range: the 8-byte little-endian word at position {@code p} (a multiple of 8, relative
 * to the stamped start) of tag {@code t} is {@code mix64(t, p / 8)}. The mixer is SplitMix64's finaliser applied
 * twice, once to the tag and once to the tag's hash plus a Weyl step per word, so neighbouring words, neighbouring
 * tags and a shifted copy all differ.
 */
public final class Stamps {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Stamps() {}

    /** The word at index {@code wordIndex} of tag {@code tag}. */
    public static long mix64(final long tag, final long wordIndex) {
        return finalise(finalise(tag + GOLDEN) + (wordIndex + 1) * GOLDEN);
    }

    private static long finalise(final long x) {
        long z = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The byte at position {@code position} of tag {@code tag}. */
    public static byte byteAt(final long tag, final long position) {
        return (byte) (mix64(tag, position >>> 3) >>> ((position & 7) * 8));
    }
}
