package dev.kvtier.lab.explore;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The seeds one shard plans to run: of {@code [from, from + seeds)}, those whose offset from {@code from} is
 * {@code shard.index()} modulo {@code shard.count()}. They form an arithmetic progression, so overlaps between two
 * sets are found with arithmetic (the Chinese remainder theorem), not by listing seeds.
 *
 * @param from  first seed of the whole range
 * @param seeds how many seeds the whole range has (before sharding)
 * @param shard which of them this set takes
 */
public record SeedSet(long from, long seeds, Shard shard) {
    public SeedSet {
        Objects.requireNonNull(shard, "shard");
        if (seeds < 1) {
            throw new IllegalArgumentException("a seed range needs at least 1 seed, got " + seeds);
        }
        if (from > Long.MAX_VALUE - seeds) {
            throw new IllegalArgumentException("seeds " + from + " + " + seeds + " overflow");
        }
    }

    /** How many seeds this shard plans. */
    public long planned() {
        return shard.index() < seeds ? (seeds - 1 - shard.index()) / shard.count() + 1 : 0;
    }

    /** The first planned seed (only when {@link #planned} is positive). */
    public long first() {
        return from + shard.index();
    }

    /** The last planned seed (only when {@link #planned} is positive). */
    public long last() {
        return first() + (planned() - 1) * shard.count();
    }

    /** Whether this shard plans {@code seed}. */
    public boolean contains(final long seed) {
        return seed >= from && seed - from < seeds && shard.owns(seed - from);
    }

    /** How many planned seeds are at most {@code seed}. */
    public long plannedUpTo(final long seed) {
        if (planned() == 0 || seed < first()) {
            return 0;
        }
        return (Math.min(seed, last()) - first()) / shard.count() + 1;
    }

    /** The lowest seed both sets plan, or null when they share none. */
    public Long firstShared(final SeedSet other) {
        if (planned() == 0 || other.planned() == 0) {
            return null;
        }
        final BigInteger n1 = BigInteger.valueOf(shard.count());
        final BigInteger n2 = BigInteger.valueOf(other.shard.count());
        final BigInteger a1 = BigInteger.valueOf(first());
        final BigInteger a2 = BigInteger.valueOf(other.first());
        final BigInteger g = n1.gcd(n2);
        final BigInteger diff = a2.subtract(a1);
        if (diff.mod(g).signum() != 0) {
            return null;
        }
        final BigInteger m2 = n2.divide(g);
        final BigInteger t = diff.divide(g).multiply(n1.divide(g).modInverse(m2)).mod(m2);
        final BigInteger x = a1.add(n1.multiply(t));
        final BigInteger lcm = n1.multiply(m2);
        final BigInteger lo = a1.max(a2);
        final BigInteger hi = BigInteger.valueOf(Math.min(last(), other.last()));
        // The lowest s >= lo with s = x (mod lcm); BigInteger.mod is never negative.
        final BigInteger lowest = lo.add(x.subtract(lo).mod(lcm));
        return lowest.compareTo(hi) <= 0 ? lowest.longValueExact() : null;
    }

    @Override
    public String toString() {
        return "shard " + shard + " of seeds " + from + ".." + (from + seeds - 1);
    }
}
