package dev.kvtier.core.geometry;

import com.dynatrace.hash4j.hashing.HashStream128;
import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.value.PrefixKey;

/**
 * Computes rolling prefix keys with XXH3-128 (hash4j): {@code k0 = H(seed || block0)},
 * {@code ki = H(k(i-1) || blocki)}. A block is the token ids of one engine KV block; a trailing partial block gets
 * no key. The seed separates key spaces (for example two deployments sharing one L2).
 */
public final class PrefixKeys {
    private static final Hasher128 XXH3 = Hashing.xxh3_128();

    private PrefixKeys() {}

    /**
     * Keys for every full block of {@code tokens}.
     *
     * @param seed        key-space seed
     * @param tokens      token ids
     * @param blockTokens tokens per block, positive
     */
    public static PrefixKey[] of(final long seed, final int[] tokens, final int blockTokens) {
        if (blockTokens <= 0) {
            throw new IllegalArgumentException("blockTokens must be positive, got " + blockTokens);
        }
        final int blocks = tokens.length / blockTokens;
        final PrefixKey[] keys = new PrefixKey[blocks];
        long prevHi = 0;
        long prevLo = seed;
        // One stream, reset per block: the same hash as a fresh stream, without allocating one per key.
        final HashStream128 stream = XXH3.hashStream();
        for (int b = 0; b < blocks; b++) {
            final HashValue128 h = stream.reset()
                .putLong(prevHi).putLong(prevLo)
                .putInts(tokens, b * blockTokens, blockTokens)
                .get();
            keys[b] = new PrefixKey(h.getMostSignificantBits(), h.getLeastSignificantBits());
            prevHi = keys[b].hi();
            prevLo = keys[b].lo();
        }
        return keys;
    }
}
