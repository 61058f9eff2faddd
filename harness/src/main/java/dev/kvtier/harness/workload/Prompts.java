package dev.kvtier.harness.workload;

import dev.kvtier.core.geometry.PrefixKeys;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
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
    /** One prompt's tokens, reused from prompt to prompt (only its keys are kept). */
    private int[] tokens = new int[0];

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
            k = List.of(PrefixKeys.of(keySeed, tokens(prompt), spec.blockTokens()));
            keys.set(prompt, k);
        }
        return k;
    }

    /** Prompt {@code prompt}'s tokens, in the reused array (valid until the next call). */
    private int[] tokens(final int prompt) {
        if (tokens.length != spec.inputTokens()) {
            tokens = new int[spec.inputTokens()];
        }
        final int[] t = tokens;
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
