package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.metrics.MissReason;
import dev.kvtier.harness.metrics.PrefilledBy;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.workload.RequestTiming;
import java.util.List;

/**
 * What {@link ProvenanceChecker} knows of one request between its lookup and its end: the blocks its lookup found
 * (its hit), why each other block missed (as of the lookup), and what its load did: the slots it read from L2 (the
 * rest of the hit came from L1), and why it failed, if it did. Not thread-safe.
 */
final class RequestSight {
    final long requestId;
    final int blocks;
    /** The keys of the hit (the chunks' keys with chunked keys). */
    final List<PrefixKey> hitKeys;
    final int hitBlocks;
    /** The sequence number of the request's Lookup event. */
    final long lookupSeq;
    /** Blocks past the hit, by {@link MissReason#index}. */
    private final long[] missBlocks;
    final int firstMissBlock;
    final MissReason firstMissReason;
    final PrefixKey firstMissKey;
    long loadId = -1;
    private long lastSlot = -1;
    private boolean lastFromL2;
    private long lastGapSlot = -1;
    private int l2Slots;
    private boolean loaded;
    LoadFailure failure;
    private MissReason failedFor;

    RequestSight(final long requestId, final int blocks, final List<PrefixKey> hitKeys, final int hitBlocks,
                 final long lookupSeq,
                 final long[] missBlocks, final int firstMissBlock, final MissReason firstMissReason,
                 final PrefixKey firstMissKey) {
        if (hitBlocks < 0 || hitBlocks > blocks) {
            throw new IllegalArgumentException("request " + requestId + ": a hit of " + hitBlocks + " of " + blocks
                + " blocks");
        }
        this.requestId = requestId;
        this.blocks = blocks;
        this.hitKeys = hitKeys;
        this.hitBlocks = hitBlocks;
        this.lookupSeq = lookupSeq;
        this.missBlocks = missBlocks;
        this.firstMissBlock = firstMissBlock;
        this.firstMissReason = firstMissReason;
        this.firstMissKey = firstMissKey;
    }

    /** The load was requested over {@code loadRanges}. */
    void requested(final List<LoadRange> loadRanges) {
        final LoadRange last = loadRanges.getLast();
        lastSlot = last.alloc().startSlot() + last.alloc().slotCount() - 1L;
    }

    /** The load found {@code lengthBytes} at {@code fileOffset} missing from L1: the slots it touches come from L2. */
    void gap(final long fileOffset, final long lengthBytes, final long slotBytes) {
        final long first = fileOffset / slotBytes;
        final long last = (fileOffset + lengthBytes - 1) / slotBytes;
        // Gaps come in file order within a run of adjacent ranges: a slot two gaps touch is the last one's first.
        l2Slots += (int) (last - first + 1 - (first == lastGapSlot ? 1 : 0));
        lastGapSlot = last;
        lastFromL2 |= first <= lastSlot && lastSlot <= last;
    }

    void loaded() {
        loaded = true;
    }

    /** The load failed for {@code why}: every block of the hit is prefilled for {@code reason}. */
    void failed(final LoadFailure why, final MissReason reason) {
        failure = why;
        failedFor = reason;
    }

    /** Blocks the load brought: the hit, unless the load failed. */
    int servedBlocks() {
        return loaded ? hitBlocks : 0;
    }

    /** True when the hit's load has ended (or there was nothing to load). */
    boolean loadEnded() {
        return hitBlocks == 0 || loaded || failedFor != null;
    }

    /**
     * The request's account, with {@code t}'s timing; {@code blockTokens} tokens a block. The request's input is its
     * blocks and a trailing partial block (always computed); a full hit computes its last token again.
     */
    RequestTokens account(final RequestTiming t, final int blockTokens) {
        final long input = t.tokens().input();
        final long tail = input - (long) blocks * blockTokens;
        if (tail < 0 || tail >= blockTokens || !loadEnded()) {
            throw new IllegalStateException("request " + requestId + ": " + input + " input tokens for " + blocks
                + " blocks of " + blockTokens + (loadEnded() ? "" : ", and its load did not end"));
        }
        final long[] byReason = new long[MissReason.values().length];
        for (int i = 0; i < byReason.length; i++) {
            byReason[i] = missBlocks[i] * blockTokens;
        }
        if (failedFor != null) {
            byReason[failedFor.index()] += (long) hitBlocks * blockTokens;
        }
        byReason[MissReason.ALWAYS_COMPUTED.index()] += tail;
        long fromL2 = (long) (loaded ? l2Slots : 0) * blockTokens;
        long fromL1 = (long) servedBlocks() * blockTokens - fromL2;
        if (blocks > 0 && servedBlocks() == blocks && tail == 0) {
            byReason[MissReason.ALWAYS_COMPUTED.index()]++;
            if (lastFromL2) {
                fromL2--;
            } else {
                fromL1--;
            }
        }
        return new RequestTokens(requestId, t.phase(), t.arrivalNs(), t.ttftNs(), input, fromL1, fromL2,
            PrefilledBy.of(byReason), blocks, hitBlocks, failure, firstMissBlock, firstMissReason, firstMissKey);
    }
}
