package dev.kvtier.cli.explore;

/**
 * One shard of a seed range: shard {@code index} of {@code count} owns the seeds whose offset from the range's start
 * is {@code index} modulo {@code count}, so every seed belongs to exactly one shard and shards stay balanced.
 */
public record Shard(int index, int count) {
    /** The whole range. */
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count + ": need 0 <= i < n");
        }
    }

    /** Parses {@code i/n}; the message names the problem. */
    public static Shard parse(final String text) {
        final String[] parts = text.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("--shard must be i/n (for example 0/4), got '" + text + "'");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--shard must be i/n with whole numbers, got '" + text + "'");
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
