package dev.kvtier.harness.workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A window of a request trace (docs/design/TRAFFIC.md), ready to replay: per request, in arrival order, its arrival (ns
 * after the window's start, already scaled), its input and output tokens, and the ids of its trace blocks of
 * {@link #blockTokens()} tokens each (the last may be partial). An id names a block <i>and</i> everything before it
 * (the Mooncake traces' remapped prefix hashes), so two requests whose first k ids are equal share the KV of their
 * first k blocks. A trace without reuse information (Azure's) gets ids no other request has. Immutable; the arrays
 * are never handed out.
 */
public final class Trace {
    /** Ids at or above this are made up for traces without reuse information; a trace's own ids stay below it. */
    public static final long DISTINCT_IDS_FROM = 1L << 62;

    private final String name;
    private final int blockTokens;
    private final long[] arrivalNs;
    private final int[] inputTokens;
    private final int[] outputTokens;
    /** Request i's ids are {@code blockIds[firstBlock[i] .. firstBlock[i + 1])}. */
    private final int[] firstBlock;
    private final long[] blockIds;

    private Trace(final Builder b) {
        this.name = b.name;
        this.blockTokens = b.blockTokens;
        this.arrivalNs = Arrays.copyOf(b.arrivalNs, b.size);
        this.inputTokens = Arrays.copyOf(b.inputTokens, b.size);
        this.outputTokens = Arrays.copyOf(b.outputTokens, b.size);
        this.firstBlock = Arrays.copyOf(b.firstBlock, b.size + 1);
        this.blockIds = Arrays.copyOf(b.blockIds, b.blocks);
    }

    /** Where the trace came from (a file name or a bundled name), for reports. */
    public String name() {
        return name;
    }

    /** Tokens of a trace block (512 in the Mooncake traces). */
    public int blockTokens() {
        return blockTokens;
    }

    /** Requests in the window. */
    public int size() {
        return arrivalNs.length;
    }

    /** Request {@code i}'s arrival, ns after the window's start. */
    public long arrivalNs(final int i) {
        return arrivalNs[i];
    }

    public int inputTokens(final int i) {
        return inputTokens[i];
    }

    public int outputTokens(final int i) {
        return outputTokens[i];
    }

    /** Trace blocks of request {@code i}: {@code ceil(inputTokens / blockTokens)}. */
    public int blocks(final int i) {
        return firstBlock[i + 1] - firstBlock[i];
    }

    /** The id of request {@code i}'s trace block {@code b}. */
    public long blockId(final int i, final int b) {
        if (b < 0 || b >= blocks(i)) {
            throw new IndexOutOfBoundsException("block " + b + " of request " + i + "'s " + blocks(i));
        }
        return blockIds[firstBlock[i] + b];
    }

    /** The most input tokens of any request. */
    public int maxInputTokens() {
        int max = 0;
        for (final int n : inputTokens) {
            max = Math.max(max, n);
        }
        return max;
    }

    /** Input tokens of every request. */
    public long totalInputTokens() {
        long sum = 0;
        for (final int n : inputTokens) {
            sum += n;
        }
        return sum;
    }

    /**
     * Distinct slots of {@code slotTokens} tokens the window stores: for each distinct id, the most whole slots any
     * request has of that block (a partial trailing slot is never stored). The unbounded cache holds this many.
     * The map is used for point look-ups and a sum only.
     */
    public long distinctSlots(final int slotTokens) {
        final Map<Long, Integer> slots = new HashMap<>();
        for (int i = 0; i < size(); i++) {
            for (int b = 0; b < blocks(i); b++) {
                final int tokens = Math.min(blockTokens, inputTokens[i] - b * blockTokens);
                slots.merge(blockId(i, b), tokens / slotTokens, Math::max);
            }
        }
        long sum = 0;
        for (final int n : slots.values()) {
            sum += n;
        }
        return sum;
    }

    /** Builds a trace, one request at a time, in arrival order. */
    public static final class Builder {
        private final String name;
        private final int blockTokens;
        private int size;
        private int blocks;
        private long[] arrivalNs = new long[64];
        private int[] inputTokens = new int[64];
        private int[] outputTokens = new int[64];
        private int[] firstBlock = new int[65];
        private long[] blockIds = new long[256];

        public Builder(final String name, final int blockTokens) {
            if (blockTokens < 1) {
                throw new IllegalArgumentException("a trace block needs at least one token, got " + blockTokens);
            }
            this.name = name;
            this.blockTokens = blockTokens;
        }

        /** Adds a request; its ids must be as many as its input's blocks, and it must not arrive before the last. */
        public Builder add(final long arrival, final int input, final int output, final long[] ids) {
            if (input < 1 || output < 0) {
                throw new IllegalArgumentException("request " + size + ": input tokens must be positive and output "
                    + "tokens not negative, got " + input + " and " + output);
            }
            if (ids.length != (input + blockTokens - 1) / blockTokens) {
                throw new IllegalArgumentException("request " + size + ": " + ids.length + " block ids for " + input
                    + " tokens in blocks of " + blockTokens);
            }
            if (arrival < 0 || (size > 0 && arrival < arrivalNs[size - 1])) {
                throw new IllegalArgumentException("request " + size + " arrives at " + arrival + " ns, before the "
                    + "one before it or before 0");
            }
            if (size == arrivalNs.length) {
                arrivalNs = Arrays.copyOf(arrivalNs, 2 * size);
                inputTokens = Arrays.copyOf(inputTokens, 2 * size);
                outputTokens = Arrays.copyOf(outputTokens, 2 * size);
                firstBlock = Arrays.copyOf(firstBlock, 2 * size + 1);
            }
            while (blocks + ids.length > blockIds.length) {
                blockIds = Arrays.copyOf(blockIds, 2 * blockIds.length);
            }
            arrivalNs[size] = arrival;
            inputTokens[size] = input;
            outputTokens[size] = output;
            System.arraycopy(ids, 0, blockIds, blocks, ids.length);
            blocks += ids.length;
            size++;
            firstBlock[size] = blocks;
            return this;
        }

        public int size() {
            return size;
        }

        public Trace build() {
            if (size == 0) {
                throw new IllegalArgumentException("a trace needs at least one request");
            }
            return new Trace(this);
        }
    }
}
