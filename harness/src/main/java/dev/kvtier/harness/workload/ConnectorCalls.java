package dev.kvtier.harness.workload;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;

/**
 * What the {@link StepEngine}'s connector asks of the store, shaped by its {@link ConnectorSpec}: the keys a lookup
 * walks, the allocations a request claims, the ranges a load asks for and the specs a save queues. With
 * {@link ConnectorSpec#DEFAULT} every call is the reference connector's: one key and one slot a block.
 */
final class ConnectorCalls {
    /** One allocation call: {@code keys}, {@code slotsPerKey} slots each, the first for block {@code fromBlock}. */
    record Run(int fromBlock, List<PrefixKey> keys, int slotsPerKey) {}

    private final ConnectorSpec spec;
    private final long slotBytes;
    private final long partialBytes;
    private final boolean storeLoaded;
    private final int baseModel;
    /**
     * The content version of every allocation a rewriting request claimed (an allocation absent holds version 0), by
     * allocation id: what a load of it must find. Kept across the workload's lives ({@link #continueFrom}): a chunk
     * recovered after a crash keeps its id and its bytes.
     */
    private Map<Long, Long> versions = new HashMap<>();
    private long rewrittenLoaded;
    /**
     * The allocations a short spec ({@link ConnectorSpec#shortSpecEvery}) stored, by id: their last slot was never
     * covered. Kept across the workload's lives, as {@link #versions}.
     */
    private Set<Long> shortStored = new HashSet<>();
    private long uncoveredLoads;

    ConnectorCalls(final ConnectorSpec spec, final int blockTokens, final long slotBytes, final CommitMode mode,
                   final int baseModel) {
        this.spec = spec;
        this.baseModel = baseModel;
        this.slotBytes = slotBytes;
        final long leading = slotBytes * (blockTokens - 1) / blockTokens;
        final long aligned = leading - leading % Alignment.BYTES;
        this.partialBytes = spec.partialLoads() && aligned > 0 ? aligned : slotBytes;
        this.storeLoaded = spec.storeLoaded() && mode == CommitMode.L1;
    }

    /** The model id request {@code r} looks up and allocates under. */
    int model(final EngineRequest r) {
        return baseModel + spec.modelOffset(r.id);
    }

    /** The content of {@code key} under a model offset and a version: the key's own tag when both are 0. */
    static long tagOf(final PrefixKey key, final int modelOffset, final long version) {
        final long base = WorkloadDriver.tagOf(key);
        if (modelOffset == 0 && version == 0) {
            return base;
        }
        return Prompts.mix(base ^ modelOffset * 0x9E3779B97F4A7C15L ^ version * 0xC2B2AE3D27D4EB4FL) | 1;
    }

    /** What request {@code r} computes for its block {@code block}: its model's, in its own version. */
    long computed(final EngineRequest r, final int block) {
        return tagOf(r.keys.get(block), spec.modelOffset(r.id), spec.version(r.id));
    }

    /**
     * What block {@code block} of {@code r}'s cached prefix must hold once loaded: its key's content under {@code r}'s
     * model (never another model's), in the version of the allocation it came from.
     */
    long expected(final EngineRequest r, final int block) {
        long version = 0;
        if (!versions.isEmpty()) {
            int first = 0;
            for (final AllocationRef ref : r.prefix) {
                if (block < first + ref.slotCount()) {
                    version = versions.getOrDefault(ref.allocationId(), 0L);
                    break;
                }
                first += ref.slotCount();
            }
            rewrittenLoaded += version != 0 ? 1 : 0;
        }
        return tagOf(r.keys.get(block), spec.modelOffset(r.id), version);
    }

    /** {@code r} claimed {@code ref}: a load of it must find {@code r}'s version. */
    void claimed(final EngineRequest r, final AllocationRef ref) {
        final long version = spec.version(r.id);
        if (version != 0) {
            versions.put(ref.allocationId(), version);
        } else if (!versions.isEmpty()) {
            versions.remove(ref.allocationId()); // an id a lost allocation of an earlier life had
        }
        if (!shortStored.isEmpty()) {
            shortStored.remove(ref.allocationId());
        }
    }

    /** Loads so far that asked for an allocation a short spec stored (a slot with no checksum: it must fail). */
    long uncoveredLoads() {
        return uncoveredLoads;
    }

    /** Blocks loaded whose allocation held a rewritten version, so far (checked against that version). */
    long rewrittenLoaded() {
        return rewrittenLoaded;
    }

    /** Takes the allocations' versions from the connector of the workload's previous life (after a crash). */
    void continueFrom(final ConnectorCalls previous) {
        this.versions = previous.versions;
        this.rewrittenLoaded = previous.rewrittenLoaded;
        this.shortStored = previous.shortStored;
        this.uncoveredLoads = previous.uncoveredLoads;
    }

    /** The keys a lookup walks: a chunk's key is the prefix key of its last block. */
    List<PrefixKey> lookupKeys(final List<PrefixKey> keys) {
        final int n = spec.blocksPerKey();
        if (n == 1) {
            return keys;
        }
        final int blocks = keys.size();
        final List<PrefixKey> out = new ArrayList<>();
        for (int end = n; end < blocks + n; end += n) {
            out.add(keys.get(Math.min(end, blocks) - 1));
        }
        return out;
    }

    /** Blocks a cached prefix of chunks covers. */
    static int blocksOf(final List<AllocationRef> prefix) {
        int n = 0;
        for (final AllocationRef ref : prefix) {
            n += ref.slotCount();
        }
        return n;
    }

    /**
     * The allocation calls for blocks {@code [from, to)} ({@code from} starts a chunk): the whole chunks in one call,
     * then a prompt's trailing, smaller chunk in a call of its own.
     */
    List<Run> allocations(final List<PrefixKey> keys, final int from, final int to) {
        final int n = spec.blocksPerKey();
        if (n == 1) {
            return List.of(new Run(from, keys.subList(from, to), 1));
        }
        final List<Run> out = new ArrayList<>(2);
        final int whole = (to - from) / n;
        if (whole > 0) {
            final List<PrefixKey> chunkKeys = new ArrayList<>(whole);
            for (int i = 1; i <= whole; i++) {
                chunkKeys.add(keys.get(from + i * n - 1));
            }
            out.add(new Run(from, chunkKeys, n));
        }
        final int tail = from + whole * n;
        if (tail < to) {
            out.add(new Run(tail, List.of(keys.get(to - 1)), to - tail));
        }
        return out;
    }

    /** The ranges that load a cached prefix, chunk by chunk; {@code destOf} gives a block's offset in engine memory. */
    List<LoadRange> loadRanges(final List<AllocationRef> prefix, final IntToLongFunction destOf) {
        final List<LoadRange> ranges = new ArrayList<>(prefix.size());
        int block = 0;
        boolean uncovered = false;
        for (int i = 0; i < prefix.size(); i++) {
            final AllocationRef ref = prefix.get(i);
            uncovered |= !shortStored.isEmpty() && shortStored.contains(ref.allocationId());
            final LoadRange whole = LoadRange.whole(ref, slotBytes, destOf.applyAsLong(block));
            ranges.add(i < prefix.size() - 1 ? whole : new LoadRange(ref, whole.fileOffset(),
                whole.lengthBytes() - slotBytes + partialBytes, whole.destOffset()));
            block += ref.slotCount();
        }
        uncoveredLoads += uncovered ? 1 : 0;
        return ranges;
    }

    /** Bytes a load of {@code cached} blocks brought into block {@code block}. */
    long loadedBytes(final int block, final int cached) {
        return block == cached - 1 ? partialBytes : slotBytes;
    }

    /** True when a save stores again the prefix {@code r} loaded (its blocks must be stamped first). */
    boolean storesLoaded(final EngineRequest r) {
        return storeLoaded && r.cached > 0;
    }

    /** The specs of {@code r}'s save, in prefix order; {@code blockId} numbers a block in engine memory. */
    List<StoreSpec> specs(final EngineRequest r, final IntUnaryOperator blockId) {
        final List<StoreSpec> specs = new ArrayList<>(r.claims.size() + 1);
        if (spec.aborts(r.id)) {
            return specs;
        }
        if (storesLoaded(r)) {
            int block = 0;
            for (final AllocationRef ref : r.prefix) {
                specs.add(StoreSpec.of(ref, blockIds(block, ref.slotCount(), blockId), slotBytes));
                block += ref.slotCount();
            }
        }
        final int firstClaim = specs.size();
        for (int i = 0; i < r.claims.size(); i++) {
            final AllocationRef ref = r.claims.ref(i);
            specs.add(StoreSpec.of(ref, blockIds(r.claims.block(i), ref.slotCount(), blockId), slotBytes));
        }
        if (spec.badSpan(r.id) && firstClaim < specs.size()) {
            final StoreSpec good = specs.get(firstClaim);
            final long shift = (r.id / spec.badSpanEvery()) % 2 == 0 ? 512 : good.alloc().lengthBytes(slotBytes);
            specs.set(firstClaim, new StoreSpec(good.alloc(), good.blocks(), good.fileOffset() + shift));
        }
        if (spec.shortSpec(r.id) || spec.shiftedSpec(r.id)) {
            misplace(r, specs, firstClaim);
        }
        if (spec.duplicateSpecs() && !specs.isEmpty()) {
            specs.add(specs.getFirst());
        }
        return specs;
    }

    /**
     * The client bugs that misplace a claimed spec: the first claimed spec of more than one block leaves out its last
     * block ({@link ConnectorSpec#shortSpecEvery}), then is sent one slot late
     * ({@link ConnectorSpec#shiftedSpecEvery}).
     */
    private void misplace(final EngineRequest r, final List<StoreSpec> specs, final int firstClaim) {
        int at = firstClaim;
        while (at < specs.size() && specs.get(at).blocks().size() < 2) {
            at++;
        }
        if (at == specs.size()) {
            return;
        }
        StoreSpec s = specs.get(at);
        if (spec.shortSpec(r.id)) {
            s = new StoreSpec(s.alloc(), s.blocks().subList(0, s.blocks().size() - 1), s.fileOffset());
            shortStored.add(s.alloc().allocationId());
        }
        if (spec.shiftedSpec(r.id)) {
            s = new StoreSpec(s.alloc(), s.blocks(), s.fileOffset() + slotBytes);
        }
        specs.set(at, s);
    }

    private static List<Integer> blockIds(final int from, final int count, final IntUnaryOperator blockId) {
        if (count == 1) { // a one-slot allocation, the usual case: the list StoreSpec keeps as it is (List.copyOf)
            return List.of(blockId.applyAsInt(from));
        }
        final List<Integer> ids = new ArrayList<>(count);
        for (int b = from; b < from + count; b++) {
            ids.add(blockId.applyAsInt(b));
        }
        return ids;
    }
}
