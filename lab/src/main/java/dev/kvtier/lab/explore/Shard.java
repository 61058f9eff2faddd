package dev.kvtier.lab.explore;

import java.util.Map;

/**
 * One shard of a seed range: shard {@code index} of {@code count} owns the seeds whose offset from the range's start
 * is {@code index} modulo {@code count}, so every seed belongs to exactly one shard and shards stay balanced.
 */
public record Shard(int index, int count) {
    /** The whole range. */
    public static final Shard ALL = new Shard(0, 1);
    /** The shard index a Kubernetes Indexed Job gives each pod. */
    public static final String INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** The shard count: Kubernetes does not tell a pod its Job's completions, so the manifest sets this. */
    public static final String COUNT_ENV = "KVTIER_SHARDS";

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count + ": need 0 <= i < n");
        }
    }

    /** Parses {@code i/n}; the message names the problem. */
    public static Shard parse(final String text) {
        final String[] parts = text.split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("--shard must be i/n (for example 0/4), got '" + text + "'");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--shard must be i/n with whole numbers, got '" + text + "'");
        }
    }

    /**
     * The shard named by {@link #INDEX_ENV} and {@link #COUNT_ENV} in {@code env} ({@code --shard-from-env}); the
     * message names the variable that is missing or malformed.
     */
    public static Shard fromEnv(final Map<String, String> env) {
        final int index = envNumber(env, INDEX_ENV, "a Kubernetes Indexed Job sets it");
        final int count = envNumber(env, COUNT_ENV, "set it to the number of shards, the Job's completions");
        if (count < 1 || index >= count) {
            throw new IllegalArgumentException("--shard-from-env: " + INDEX_ENV + "=" + index + " and " + COUNT_ENV
                + "=" + count + ": need 0 <= index < count");
        }
        return new Shard(index, count);
    }

    private static int envNumber(final Map<String, String> env, final String name, final String hint) {
        final String text = env.get(name);
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("--shard-from-env: " + name + " is not set (" + hint + ")");
        }
        try {
            final int value = Integer.parseInt(text.strip());
            if (value < 0) {
                throw new NumberFormatException(text);
            }
            return value;
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--shard-from-env: " + name + " must be a whole number >= 0, got '"
                + text + "'");
        }
    }

    /** True when this shard runs seed {@code from + offset}. */
    public boolean owns(final long offset) {
        return Math.floorMod(offset, count) == index;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
