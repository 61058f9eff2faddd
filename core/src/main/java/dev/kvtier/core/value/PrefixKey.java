package dev.kvtier.core.value;

import java.util.HexFormat;

/**
 * A 128-bit rolling prefix key: {@code k0 = H(seed || block0)}, {@code ki = H(k(i-1) || blocki)}. Equal keys
 * mean equal prefixes (up to hash collisions of a 128-bit hash). Ordered by (hi, lo) so sorted collections of keys
 * never depend on hash order.
 *
 * <p>{@link #equals} and {@link #hashCode} are written out (the same values a record's generated ones give: hash
 * {@code 31 * Long.hashCode(hi) + Long.hashCode(lo)}) because keys are compared on every directory look-up and the
 * generated ones showed in profiles.
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
    public boolean equals(final Object other) {
        return other instanceof PrefixKey k && k.hi == hi && k.lo == lo;
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(hi) + Long.hashCode(lo);
    }

    @Override
    public String toString() {
        return shortHex();
    }
}
