package dev.kvtier.lab.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Held-out shapes drawn at random: {@code kvtier fidelity --held-out N --seed S} replaces the fixed matrix with N
 * scenarios drawn from a seeded distribution that the calibration never runs and nobody tuned the model on. Each
 * shape is one of three families:
 * <ul>
 *   <li>{@code evict} (about 70 %): {@code pr90-evict-small}'s cold-then-warm shape with a prompt length drawn
 *       log-uniformly from 512 to 16,384 tokens, a concurrency of 1 to 16, L1 from 20 to 95 % and L2 from 50 to
 *       120 % of the KV, per-slot or contiguous store spans, commit mode {@code l1} or {@code durable}, replacement
 *       {@code lru} or {@code prefix-lru}, staging batches of 36, 144 or 288 MiB in a pool of 2 or 4 batches, and as
 *       many prompts as make 1.5 to 6 GiB of KV;</li>
 *   <li>{@code zipf} (about 15 %): {@code prefix-sharing-zipf} with 1,024 to 8,192 tokens, half of them a prefix
 *       shared by 2, 4 or 8 groups, a Zipf phase 2 to 4 times the prompts, L1 20 to 60 % and L2 40 to 100 %;</li>
 *   <li>{@code trace} (about 15 %): 20 to 60 requests of the Mooncake conversation trace from a point drawn in its
 *       first nine minutes, at its recorded rate or half of it.</li>
 * </ul>
 * Each shape is fitted to the machine: its host memory (the L1 pool, the staging pool and the engine's KV region of
 * concurrency x prompt) at most {@link Budget#memoryBytes} and its L2 file at most {@link Budget#diskBytes}; the
 * concurrency, then the prompts, shrink until it fits. The same seed and budget give the same shapes.
 */
public final class HeldOutDraw {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    /** Qwen3-8B's KV a token: 36 layers x 8 KV heads x 128 x 2 bytes x K and V. */
    static final long KV_BYTES_PER_TOKEN = 36L * 8 * 128 * 2 * 2;
    private static final int BLOCK_TOKENS = 16;
    private static final long[] STAGING_BATCH = {36 * MIB, 144 * MIB, 288 * MIB};

    private HeldOutDraw() {}

    /**
     * What a shape may use on this machine.
     *
     * @param memoryBytes host memory for the L1 pool, the staging pool and the engine's KV region together
     * @param diskBytes   the L2 file's size
     */
    public record Budget(long memoryBytes, long diskBytes) {
        public Budget {
            if (memoryBytes < 2 * GIB || diskBytes < 2 * GIB) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "a held-out shape needs at least 2 GiB"
                    + " of memory and 2 GiB of disk, the budget is %.1f GiB and %.1f GiB", memoryBytes / (double) GIB,
                    diskBytes / (double) GIB));
            }
        }
    }

    /** {@code n} shapes from {@code seed}, labelled {@code s<seed>-<i>-<family>}. */
    public static List<Matrix.HeldOut> draw(final int n, final long seed, final Budget budget) {
        if (n < 1) {
            throw new IllegalArgumentException("--held-out must be 1 or more, got " + n);
        }
        final SplittableRandom r = new SplittableRandom(seed);
        final List<Matrix.HeldOut> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            final double family = r.nextDouble();
            final String prefix = String.format(Locale.ROOT, "s%d-%02d-", seed, i);
            if (family < 0.70) {
                out.add(evict(prefix + "evict", r, budget));
            } else if (family < 0.85) {
                out.add(zipf(prefix + "zipf", r, budget));
            } else {
                out.add(trace(prefix + "trace", r));
            }
        }
        return List.copyOf(out);
    }

    private static Matrix.HeldOut evict(final String label, final SplittableRandom r, final Budget budget) {
        final int tokens = tokens(r, 512, 16_384);
        final int concurrencyDrawn = 1 + r.nextInt(16);
        final double l1 = round2(0.20 + 0.75 * r.nextDouble());
        final double l2 = round2(0.50 + 0.70 * r.nextDouble());
        final boolean coalesce = r.nextBoolean();
        final String commit = r.nextBoolean() ? "l1" : "durable";
        final String replacement = r.nextBoolean() ? "lru" : "prefix-lru";
        final long batch = STAGING_BATCH[r.nextInt(STAGING_BATCH.length)];
        final long pool = batch * (r.nextBoolean() ? 2 : 4);
        final long kvTarget = (long) ((1.5 + 4.5 * r.nextDouble()) * GIB);
        final boolean zipfWarm = r.nextBoolean();
        final double exponent = round2(0.8 + 0.6 * r.nextDouble());
        final Fitted f = fit(tokens, kvTarget, concurrencyDrawn, 2, l1, l2, pool, budget);
        final List<String> warm = zipfWarm ? List.of("phase.1.requests=" + 2 * f.prompts(), "phase.1.order=zipf",
            "phase.1.zipfExponent=" + exponent) : List.of("phase.1.requests=" + f.prompts());
        return new Matrix.HeldOut(label, "pr90-evict-small", Stream.concat(Stream.of("workload.prompts=" + f.prompts(),
            "workload.inputTokens=" + f.tokens(), "workload.concurrency=" + f.concurrency(),
            "phase.0.requests=" + f.prompts(),
            "core.l1Fraction=" + l1, "core.l2Fraction=" + l2, "core.coalesceStoreSpans=" + coalesce,
            "core.commitMode=" + commit, "core.replacement=" + replacement, "core.stagingBatchBytes=" + batch,
            "core.stagingPoolBytes=" + pool), warm.stream()).toList());
    }

    private static Matrix.HeldOut zipf(final String label, final SplittableRandom r, final Budget budget) {
        final int tokensDrawn = tokens(r, 1024, 8192);
        final int groups = 2 << r.nextInt(3);
        final int concurrencyDrawn = 1 + r.nextInt(16);
        final double l1 = round2(0.20 + 0.40 * r.nextDouble());
        final double l2 = round2(0.40 + 0.60 * r.nextDouble());
        final long batch = STAGING_BATCH[1 + r.nextInt(2)];
        final long pool = 2 * batch;
        final long kvTarget = (long) ((1.5 + 3.0 * r.nextDouble()) * GIB);
        final int zipfTimes = 2 + r.nextInt(3);
        final Fitted f = fit(tokensDrawn, kvTarget, concurrencyDrawn, groups, l1, l2, pool, budget);
        final int shared = Math.max(BLOCK_TOKENS, f.tokens() / 2 / BLOCK_TOKENS * BLOCK_TOKENS);
        return new Matrix.HeldOut(label, "prefix-sharing-zipf", List.of("workload.prompts=" + f.prompts(),
            "workload.inputTokens=" + f.tokens(), "workload.sharedPrefixTokens=" + shared,
            "workload.prefixGroups=" + groups, "workload.concurrency=" + f.concurrency(),
            "phase.0.requests=" + f.prompts(), "phase.1.requests=" + zipfTimes * f.prompts(), "core.l1Fraction=" + l1,
            "core.l2Fraction=" + l2,
            "core.stagingBatchBytes=" + batch, "core.stagingPoolBytes=" + pool));
    }

    /** A shape's prompts, concurrency and prompt length once fitted to the budget. */
    private record Fitted(int prompts, int concurrency, int tokens) {}

    /**
     * Prompts, concurrency and tokens that fit {@code budget}: as many prompts of {@code tokens} as make {@code
     * kvTarget} (at least {@code minPrompts}), then the concurrency, the prompts and at last the prompt length shrink
     * until the shape fits.
     */
    private static Fitted fit(final int tokensDrawn, final long kvTarget, final int concurrencyDrawn,
                              final int minPrompts, final double l1, final double l2, final long pool,
                              final Budget budget) {
        int tokens = tokensDrawn;
        while (true) {
            final long prompt = tokens * KV_BYTES_PER_TOKEN;
            int prompts = (int) Math.max(minPrompts, kvTarget / prompt);
            int concurrency = Math.min(concurrencyDrawn, prompts);
            while (concurrency > 1 && !fits(prompts, prompt, concurrency, l1, l2, pool, budget)) {
                concurrency--;
            }
            while (prompts > minPrompts && !fits(prompts, prompt, concurrency, l1, l2, pool, budget)) {
                prompts--;
            }
            if (fits(prompts, prompt, concurrency, l1, l2, pool, budget) || tokens <= 4 * BLOCK_TOKENS) {
                return new Fitted(prompts, concurrency, tokens);
            }
            tokens = Math.max(4 * BLOCK_TOKENS, tokens / 2 / BLOCK_TOKENS * BLOCK_TOKENS);
        }
    }

    private static Matrix.HeldOut trace(final String label, final SplittableRandom r) {
        final int requests = 20 + r.nextInt(41);
        final long fromMs = r.nextLong(540_000L);
        final String scale = r.nextBoolean() ? "1" : "0.5";
        return new Matrix.HeldOut(label, "mooncake-conversation-10min", List.of("workload.traceRequests=" + requests,
            "workload.traceFromMs=" + fromMs, "workload.traceTimeScale=" + scale));
    }

    /** A prompt length drawn log-uniformly in {@code [min, max]} tokens, a whole number of blocks. */
    private static int tokens(final SplittableRandom r, final int min, final int max) {
        final double t = Math.exp(Math.log(min) + (Math.log(max) - Math.log(min)) * r.nextDouble());
        return (int) Math.max(min, Math.min(max, Math.round(t / BLOCK_TOKENS) * BLOCK_TOKENS));
    }

    /** Whether the L1 pool, the staging pool and the engine's region fit the memory, and L2 the disk. */
    static boolean fits(final int prompts, final long prompt, final int concurrency, final double l1, final double l2,
                        final long pool, final Budget budget) {
        final long kv = prompts * prompt;
        final long memory = (long) (l1 * kv) + pool + concurrency * prompt;
        return memory <= budget.memoryBytes() && (long) (l2 * kv) <= budget.diskBytes();
    }

    private static double round2(final double v) {
        return Math.round(v * 100) / 100.0;
    }
}
