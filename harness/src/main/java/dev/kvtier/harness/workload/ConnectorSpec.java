package dev.kvtier.harness.workload;

/**
 * How the engine's KV connector calls the store, besides the defaults of the reference's (one key and one slot a
 * block, whole-slot loads, well-formed saves). Each option reaches a path of the core that the default connector
 * never takes (docs/design/STORAGE-CORE.md); all are off by default, and a run with all of them off is the reference's.
 * Some are a connector's legitimate choices, some inject a client bug that the core must refuse; the swarm draws them.
 *
 * @param blocksPerKey   blocks one key covers (chunked keys, as LMCache's chunks): each key claims a chunk of that many
 *                       slots, keyed by the prefix key of its last block, and a prompt's trailing blocks form a
 *                       smaller chunk; 1 = a key a block (every allocation one slot)
 * @param partialLoads   the last range of every load asks only for the leading pages of its slot that hold all but
 *                       the block's last token (4096-aligned; a slot of one page is loaded whole): a sub-slot load,
 *                       whose widened read is copied out but never promoted
 * @param storeLoaded    in {@code l1} commit mode, a request's save also stores again the blocks it loaded, to the
 *                       allocations it loaded them from (a connector that saves every block it holds); the same bytes
 *                       overwrite a committed chunk, superseding reads of it in flight (the server accepts a store
 *                       into a committed allocation only of the bytes committed, docs/design/STORAGE-CORE.md 4.2)
 * @param duplicateSpecs every save queues its first spec twice (staging writes it once)
 * @param abortEvery     every request whose id is a multiple of this is cancelled when its prefill ends: its claims
 *                       are released and nothing is saved; 0 = none
 * @param badSpanEvery   a client bug: in the save of every request whose id is a multiple of this, the first claimed
 *                       spec is sent 512 B past its allocation's start (misaligned) or just past its end (outside its
 *                       allocation), alternately; the server must reject it; 0 = none
 * @param models         model ids the engine serves over the same prompts: request {@code id} uses model
 *                       {@code modelId + mix(id) mod models} (a fixed scramble of its id, so one prompt is asked
 *                       for under several models across phases), and its KV content depends on the model, so a
 *                       lookup or load that ignores the model returns another model's bytes; 1 = one model
 * @param rewriteEvery   every request whose id is a multiple of this computes new content for its keys (a new version,
 *                       as after a model update): what it stores into new allocations differs from any earlier
 *                       version of the same keys, and with {@code storeLoaded} it sends that new content into the
 *                       committed allocations it loaded (which the server must refuse, keeping the committed bytes);
 *                       0 = never
 * @param shiftedSpecEvery a client bug: in the save of every request whose id is a multiple of this, the first claimed
 *                       spec of more than one block is sent one slot late (its blocks land one slot on: all but the
 *                       last inside its allocation, the last past its end). Where staging splits that spec, the
 *                       pieces inside are admitted and the one past the end is refused, so the allocation is accepted
 *                       in one store and rejected in another, and the client must not commit it; 0 = never
 * @param shortSpecEvery a client bug: in the save of every request whose id is a multiple of this, the first claimed
 *                       spec of more than one block leaves out its last block; the server accepts it and the client
 *                       commits the allocation with a slot no store covered, which has no checksum, so every load of
 *                       it must fail as corrupt (docs/design/STORAGE-CORE.md 10); 0 = never
 */
public record ConnectorSpec(int blocksPerKey, boolean partialLoads, boolean storeLoaded, boolean duplicateSpecs,
                            int abortEvery, int badSpanEvery, int models, int rewriteEvery, int shiftedSpecEvery,
                            int shortSpecEvery) {
    /** The reference's connector: none of the options. */
    public static final ConnectorSpec DEFAULT = new ConnectorSpec(1, false, false, false, 0, 0);

    /** One model, no rewrites. */
    public ConnectorSpec(final int blocksPerKey, final boolean partialLoads, final boolean storeLoaded,
                         final boolean duplicateSpecs, final int abortEvery, final int badSpanEvery) {
        this(blocksPerKey, partialLoads, storeLoaded, duplicateSpecs, abortEvery, badSpanEvery, 1, 0);
    }

    /** No shifted or short specs. */
    public ConnectorSpec(final int blocksPerKey, final boolean partialLoads, final boolean storeLoaded,
                         final boolean duplicateSpecs, final int abortEvery, final int badSpanEvery, final int models,
                         final int rewriteEvery) {
        this(blocksPerKey, partialLoads, storeLoaded, duplicateSpecs, abortEvery, badSpanEvery, models, rewriteEvery,
            0, 0);
    }

    public ConnectorSpec {
        if (blocksPerKey < 1) {
            throw new IllegalArgumentException("blocksPerKey must be positive, got " + blocksPerKey);
        }
        if (models < 1 || rewriteEvery < 0) {
            throw new IllegalArgumentException("models must be positive and rewriteEvery >= 0 (0 = never), got "
                + models + ", " + rewriteEvery);
        }
        if (abortEvery < 0 || badSpanEvery < 0 || shiftedSpecEvery < 0 || shortSpecEvery < 0) {
            throw new IllegalArgumentException("abortEvery, badSpanEvery, shiftedSpecEvery and shortSpecEvery must be"
                + " >= 0 (0 = never), got " + abortEvery + ", " + badSpanEvery + ", " + shiftedSpecEvery + ", "
                + shortSpecEvery);
        }
    }

    /** True when the request {@code requestId} is cancelled at the end of its prefill. */
    public boolean aborts(final long requestId) {
        return abortEvery > 0 && requestId % abortEvery == 0;
    }

    /** The offset of request {@code requestId}'s model from the workload's model id (0 with one model). */
    public int modelOffset(final long requestId) {
        return models == 1 ? 0 : (int) Math.floorMod(Prompts.mix(requestId), (long) models);
    }

    /** The content version request {@code requestId} computes: 0, or its own id when it rewrites. */
    public long version(final long requestId) {
        return rewriteEvery > 0 && requestId % rewriteEvery == 0 ? requestId : 0;
    }

    /** True when the save of {@code requestId} sends its first multi-block claimed spec one slot late. */
    public boolean shiftedSpec(final long requestId) {
        return shiftedSpecEvery > 0 && requestId % shiftedSpecEvery == 0;
    }

    /** True when the save of {@code requestId} leaves out the last block of its first multi-block claimed spec. */
    public boolean shortSpec(final long requestId) {
        return shortSpecEvery > 0 && requestId % shortSpecEvery == 0;
    }

    /** True when the save of {@code requestId} carries a bad span. */
    public boolean badSpan(final long requestId) {
        return badSpanEvery > 0 && requestId % badSpanEvery == 0;
    }
}
