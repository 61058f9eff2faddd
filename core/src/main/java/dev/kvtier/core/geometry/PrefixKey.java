package dev.kvtier.core.geometry;

import java.util.HexFormat;

/**
 * A 128-bit rolling prefix key: {@code k0 = H(seed || block0)}, {@code ki = H(k(i-1) || blocki)}. Equal keys
 * mean equal prefixes (up to hash collisions of a 128-bit hash). Ordered by (hi, lo) so sorted collections of keys
 * never depend on hash order.
 */
public record PrefixKey(long hi, long lo) implements Comparable<PrefixKey> {

    @Override
    public int compareTo(final PrefixKey other) {
        final int byHi = Long.compareUnsigned(hi, other.hi);
        return byHi != 0 ? byHi : Long.compareUnsigned(lo, other.lo);
    }

    /** 32 hex digits, hi first. */
    public String hex() {
        return HexFormat.of().toHexDigits(hi) + HexFormat.of().toHexDigits(lo);
    }

    /** The first 8 hex digits, for readable logs. */
    public String shortHex() {
        return HexFormat.of().toHexDigits(hi).substring(0, 8);
    }

    @Override
    public String toString() {
        return shortHex();
    }
}
