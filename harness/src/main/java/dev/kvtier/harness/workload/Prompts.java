package dev.kvtier.harness.workload;

import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.geometry.PrefixKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The prompt set: prompt p's tokens are a seeded function of p (and, for the first {@code sharedPrefixTokens}, of
 * its group only), and its keys are the rolling prefix keys of those tokens. Keys are computed once per prompt.
 */
final class Prompts {
    private final WorkloadSpec spec;
    private final long tokenSeed;
    private final long keySeed;
    private final List<List<PrefixKey>> keys;

    Prompts(final WorkloadSpec spec, final long tokenSeed, final long keySeed) {
        this.spec = spec;
        this.tokenSeed = tokenSeed;
        this.keySeed = keySeed;
        this.keys = new ArrayList<>(spec.prompts());
        for (int p = 0; p < spec.prompts(); p++) {
            keys.add(null);
        }
    }

    List<PrefixKey> keys(final int prompt) {
        List<PrefixKey> k = keys.get(prompt);
        if (k == null) {
            k = Arrays.asList(PrefixKeys.of(keySeed, tokens(prompt), spec.blockTokens()));
            keys.set(prompt, List.copyOf(k));
        }
        return keys.get(prompt);
    }

    private int[] tokens(final int prompt) {
        final int[] t = new int[spec.inputTokens()];
        final int group = prompt % spec.prefixGroups();
        for (int i = 0; i < t.length; i++) {
            final long who = i < spec.sharedPrefixTokens() ? -1 - group : prompt;
            t[i] = (int) mix(tokenSeed ^ (who << 32) ^ i);
        }
        return t;
    }

    /** SplitMix64's finalizer: a fixed bijection that spreads bits. */
    static long mix(final long z0) {
        long z = (z0 ^ (z0 >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
