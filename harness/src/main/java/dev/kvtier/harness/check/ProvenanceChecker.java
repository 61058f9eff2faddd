package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.metrics.MissReason;
import dev.kvtier.harness.metrics.PrefilledBy;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.metrics.TokenSources;
import dev.kvtier.harness.workload.RequestTiming;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where every input token came from (issue 33 item 4), and invariant 11's second half: <b>a committed hit is never
 * silently shortened</b>. It lives as long as the run (across crashes), and keeps, from events only, what happened
 * last to every key ({@link KeyFates}): claimed (Allocated), committed (Committed, ChunkRecovered), evicted from the L2
 * ring for space or at a wrap, dropped after a fault (RingEvicted for a failed write, a checksum mismatch or a commit
 * not made durable), released uncommitted, too large for the ring, or lost to a crash (claimed or committed when a
 * restarted core opens its index: IndexOpenRequested with {@code recover}). Where a key's bytes are in L1 is not kept:
 * an L1 eviction leaves the key in L2, so it never makes a block miss; which tier served a loaded block is read from
 * its load's events instead.
 *
 * <p>Per request, from the engine's events (a Lookup is followed by its request's RequestArrived: the engine makes
 * one store call at a time) and from the workload's account ({@link #loadSent} says which load is whose,
 * {@link #requestDone} gives its tokens): the blocks its lookup found (its hit), why each other block missed, as of the
 * lookup ({@link MissReason}), and what its load did: a slot any of whose bytes the load read from L2 (a LoadGap over
 * it) is from L2, the rest of the hit from L1 (exact: from the load's events, not the bytes' ratio).
 *
 * <p>The invariant, checked at the events where it can break: the request means to load exactly its hit
 * (RequestArrived's cached blocks); its load asks for exactly those blocks (LoadRequested); a failed load fails for a
 * reason the core reported (a read error or a checksum mismatch; or, for a load that found an allocation of its hit
 * gone, a RingEvicted of one of the hit's keys after the lookup: {@link WatchedHits}); and the request prefills exactly
 * what its lookup and load leave (at {@link #requestDone}). Anything else prefills committed tokens silently:
 * invariant 11 fails. A crash ends the requests in flight without an account (the restarted workload sends them
 * again). The tables by id are for point look-ups only. Not thread-safe.
 */
public final class ProvenanceChecker implements Checker {
    private static final MissReason[] BY_FATE = {MissReason.FIRST_SIGHT, MissReason.NOT_COMMITTED, null,
        MissReason.EVICTED, MissReason.FAULT, MissReason.CRASH, MissReason.NOT_COMMITTED, MissReason.EVICTED};

    private final int blockTokens;
    private final int blocksPerKey;
    private KeyFates fates;
    private final WatchedHits watched = new WatchedHits();
    private final Map<Long, RequestSight> byRequest = new HashMap<>();
    private final Map<Long, RequestSight> byLoad = new HashMap<>();
    private final List<RequestTokens> requests = new ArrayList<>();
    private final long[] prefilledBy = new long[MissReason.values().length];
    private CheckContext ctx;
    private long slotBytes;
    private LookupSight lookup;
    private long input;
    private long fromL1;
    private long fromL2;
    /** The model of the run's first allocation request, and of the one being answered. */
    private int baseModel = Integer.MIN_VALUE;
    private int allocModel;
    /** The model of every key claimed under a model other than {@link #baseModel} (most runs: none). */
    private final Map<PrefixKey, Integer> otherModels = new HashMap<>();
    private long otherModelStops;

    /**
     * What the last Lookup found, until its request's RequestArrived: its chunks (keys), its hit, the chunks past the
     * hit but the last by reason, the last one's reason (null when in the hit), and the first miss.
     */
    private static final class LookupSight {
        final long seq;
        final int chunks;
        final List<PrefixKey> hitKeys;
        final long[] missChunks;
        final MissReason lastChunk;
        final MissReason firstMiss;
        final PrefixKey firstMissKey;

        LookupSight(final long seq, final int chunks, final List<PrefixKey> hitKeys, final long[] missChunks,
                    final MissReason lastChunk, final MissReason firstMiss, final PrefixKey firstMissKey) {
            this.seq = seq;
            this.chunks = chunks;
            this.hitKeys = hitKeys;
            this.missChunks = missChunks;
            this.lastChunk = lastChunk;
            this.firstMiss = firstMiss;
            this.firstMissKey = firstMissKey;
        }
    }

    /**
     * @param blockTokens  tokens a block (a slot)
     * @param blocksPerKey blocks one key covers (the connector's chunked keys; 1 normally)
     */
    public ProvenanceChecker(final int blockTokens, final int blocksPerKey) {
        if (blockTokens < 1 || blocksPerKey < 1) {
            throw new IllegalArgumentException("blockTokens " + blockTokens + ", blocksPerKey " + blocksPerKey);
        }
        this.blockTokens = blockTokens;
        this.blocksPerKey = blocksPerKey;
    }

    @Override
    public void onEvent(final CheckContext c, final CoreEvent event) {
        if (ctx == null) {
            ctx = c;
            slotBytes = c.config().slotBytes();
            // Sized for a ring's worth of keys: a run that claims more grows it.
            fates = new KeyFates(SpecModel.ringSlots(c.config()));
        }
        final long seq = c.sequence();
        switch (event) {
            case CoreEvent.AllocateRequested e -> {
                allocModel = e.modelId();
                baseModel = baseModel == Integer.MIN_VALUE ? allocModel : baseModel;
            }
            case CoreEvent.Allocated e -> {
                fates.set(e.key(), KeyFates.CLAIMED);
                model(e.key(), allocModel);
            }
            case CoreEvent.Committed e -> fates.set(e.key(), KeyFates.COMMITTED);
            case CoreEvent.ChunkRecovered e -> {
                fates.set(e.key(), KeyFates.COMMITTED);
                model(e.key(), e.modelId());
            }
            case CoreEvent.ClaimReleased e -> {
                if (e.released()) {
                    fates.set(e.ref().key(), KeyFates.RELEASED);
                }
            }
            case CoreEvent.AllocationSkipped e -> {
                if (e.reason() == CoreEvent.SkipReason.TOO_LARGE && fates.fate(e.key()) == KeyFates.ABSENT) {
                    fates.set(e.key(), KeyFates.TOO_LARGE);
                }
            }
            case CoreEvent.RingEvicted e -> evicted(e, seq);
            case CoreEvent.IndexOpenRequested e -> {
                if (e.recover()) {
                    crashed();
                }
            }
            case CoreEvent.Lookup e -> lookup = sight(e, seq);
            case CoreEvent.RequestArrived e -> arrived(e);
            case CoreEvent.LoadRequested e -> loadRequested(e);
            case CoreEvent.LoadGap e -> {
                final RequestSight r = byLoad.get(e.loadId());
                if (r != null) {
                    r.gap(e.fileOffset(), e.lengthBytes(), slotBytes);
                }
            }
            case CoreEvent.LoadCompleted e -> {
                final RequestSight r = load(e.loadId());
                byLoad.remove(e.loadId());
                watched.unwatch(r.hitKeys);
                r.loaded();
            }
            case CoreEvent.LoadFailed e -> failed(load(e.loadId()), e.reason());
            default -> {
                // no effect on where tokens come from
            }
        }
    }

    /** Remembers that {@code key} was claimed under {@code modelId} (only when it is not the base model). */
    private void model(final PrefixKey key, final int modelId) {
        baseModel = baseModel == Integer.MIN_VALUE ? modelId : baseModel;
        if (modelId != baseModel) {
            otherModels.put(key, modelId);
        } else if (!otherModels.isEmpty()) {
            otherModels.remove(key);
        }
    }

    /** Lookups that stopped at a key committed under another model than theirs (engine.models). */
    public long otherModelStops() {
        return otherModelStops;
    }

    private void evicted(final CoreEvent.RingEvicted e, final long seq) {
        final boolean faulted = switch (e.reason()) {
            case SPACE, WRAP -> false;
            case WRITE_FAILED, CORRUPT, NOT_DURABLE -> true;
        };
        fates.set(e.key(), faulted ? KeyFates.FAULTED : KeyFates.EVICTED);
        watched.removed(e.key(), faulted, seq);
    }

    /** A restarted core opens its index: what was claimed or committed is lost, the requests in flight are gone. */
    private void crashed() {
        fates.crash();
        watched.clear();
        byRequest.clear();
        byLoad.clear();
        lookup = null;
    }

    /** What a lookup found: its hit, and why each chunk past it missed (the first miss's reason for later ones). */
    private LookupSight sight(final CoreEvent.Lookup e, final long seq) {
        final List<PrefixKey> keys = e.keys();
        final int chunks = keys.size();
        final int hit = e.prefixLength();
        final long[] missChunks = new long[MissReason.values().length];
        final List<PrefixKey> hitKeys = keys.subList(0, hit);
        watched.watch(hitKeys);
        if (hit == chunks) {
            return new LookupSight(seq, chunks, hitKeys, missChunks, null, null, null);
        }
        MissReason first = BY_FATE[fates.fate(keys.get(hit))];
        if (first == null && otherModels.getOrDefault(keys.get(hit), baseModel) != e.modelId()) {
            otherModelStops++; // same prefix, another model's chunk: for this model, never stored
            first = MissReason.FIRST_SIGHT;
        }
        if (first == null) {
            throw new IllegalStateException("the lookup of " + chunks + " keys stopped at " + hit + ", whose key "
                + keys.get(hit) + " is committed in this checker's model");
        }
        MissReason last = first;
        for (int i = hit; i < chunks; i++) {
            final MissReason own = i == hit ? first : BY_FATE[fates.fate(keys.get(i))];
            last = own == null ? first : own;
            if (i < chunks - 1) {
                missChunks[last.index()]++;
            }
        }
        return new LookupSight(seq, chunks, hitKeys, missChunks, last, first, keys.get(hit));
    }

    /** The request of the last lookup: it must mean to load exactly the hit. */
    private void arrived(final CoreEvent.RequestArrived e) {
        final LookupSight s = lookup;
        lookup = null;
        final int chunks = (e.blocks() + blocksPerKey - 1) / blocksPerKey;
        if (s == null || s.chunks != chunks) {
            throw new IllegalStateException("request " + e.requestId() + " of " + e.blocks() + " blocks arrived after "
                + (s == null ? "no lookup" : "a lookup of " + s.chunks + " keys"));
        }
        final int hitBlocks = Math.min(e.blocks(), s.hitKeys.size() * blocksPerKey);
        if (e.cachedBlocks() != hitBlocks) {
            ctx.fail(Invariant.LOOKUP_PREFIX, "a committed hit silently shortened: request " + e.requestId()
                + "'s lookup found " + hitBlocks + " of its " + e.blocks() + " blocks committed, and it means to load "
                + e.cachedBlocks());
        }
        final long[] missBlocks = s.missChunks.clone();
        for (int i = 0; i < missBlocks.length; i++) {
            missBlocks[i] *= blocksPerKey;
        }
        if (s.lastChunk != null) {
            missBlocks[s.lastChunk.index()] += e.blocks() - (long) (chunks - 1) * blocksPerKey;
        }
        byRequest.put(e.requestId(),
            new RequestSight(e.requestId(), e.blocks(), s.hitKeys, hitBlocks, s.seq, missBlocks,
                s.firstMiss == null ? -1 : hitBlocks, s.firstMiss, s.firstMissKey));
    }

    /** The workload sent load {@code loadId} for request {@code requestId}'s hit (before the core sees it). */
    public void loadSent(final long requestId, final long loadId) {
        final RequestSight r = byRequest.get(requestId);
        if (r == null || r.loadId >= 0) {
            throw new IllegalStateException("load " + loadId + " sent for request " + requestId + ", which "
                + (r == null ? "has no lookup in flight" : "already sent load " + r.loadId));
        }
        r.loadId = loadId;
        byLoad.put(loadId, r);
    }

    /** The load must ask for exactly the request's hit. */
    private void loadRequested(final CoreEvent.LoadRequested e) {
        final RequestSight r = load(e.loadId());
        int blocks = 0;
        for (final LoadRange range : e.ranges()) {
            blocks += range.alloc().slotCount();
        }
        if (blocks != r.hitBlocks) {
            ctx.fail(Invariant.LOOKUP_PREFIX,
                "a committed hit silently shortened: request " + r.requestId + "'s lookup "
                    + "found " + r.hitBlocks + " blocks committed, and its load " + e.loadId() + " asks for " + blocks);
        }
        r.requested(e.ranges());
    }

    private RequestSight load(final long loadId) {
        final RequestSight r = byLoad.get(loadId);
        if (r == null) {
            throw new IllegalStateException("load " + loadId + " belongs to no request in flight (the workload did not"
                + " say it sent it)");
        }
        return r;
    }

    /**
     * A failed load is legitimate when the core reported why: a read error or a checksum mismatch (a fault), or, when
     * an allocation of the hit was gone, an event that removed one of its keys since the lookup.
     */
    private void failed(final RequestSight r, final LoadFailure why) {
        byLoad.remove(r.loadId);
        final MissReason reason = switch (why) {
            case READ_ERROR, CORRUPT -> MissReason.FAULT;
            case NOT_COMMITTED, LEASE_REVOKED, CLOSED -> watched.removedSince(r.hitKeys, r.lookupSeq);
        };
        watched.unwatch(r.hitKeys);
        if (reason == null) {
            ctx.fail(Invariant.LOOKUP_PREFIX, "a committed hit silently shortened: request " + r.requestId + "'s load "
                + r.loadId + " failed (" + why + ") though no key of its " + r.hitBlocks + " blocks left the directory"
                + " since its lookup at event " + r.lookupSeq);
        }
        r.failed(why, reason);
    }

    /**
     * A request ended: its account is made, and what it says it loaded and prefilled must be what its lookup and load
     * leave (invariant 11).
     */
    public void requestDone(final RequestTiming t) {
        final RequestSight r = byRequest.remove(t.requestId());
        if (r == null) {
            throw new IllegalStateException("request " + t.requestId() + " ended without a lookup");
        }
        final RequestTokens a = r.account(t, blockTokens);
        final long loaded = (long) r.servedBlocks() * blockTokens;
        if (t.tokens().loaded() != loaded || t.tokens().prefilled() != a.prefilled()) {
            ctx.fail(Invariant.LOOKUP_PREFIX, "a committed hit silently shortened: request " + t.requestId() + " loaded"
                + " " + t.tokens().loaded() + " and prefilled " + t.tokens().prefilled() + " of its " + t.tokens()
                    .input()
                + " tokens; its lookup found " + r.hitBlocks + " blocks committed and its load brought "
                + r.servedBlocks() + (r.failure == null ? "" : " (it failed: " + r.failure + ")") + ", which leave "
                + a.prefilled() + " to prefill");
        }
        requests.add(a);
        input += a.input();
        fromL1 += a.fromL1();
        fromL2 += a.fromL2();
        for (final MissReason m : MissReason.values()) {
            prefilledBy[m.index()] += a.prefilledBy().get(m);
        }
    }

    /** Where the input tokens of every request that ended so far came from. */
    public TokenSources tokenSources() {
        final PrefilledBy by = PrefilledBy.of(prefilledBy);
        return new TokenSources(input, fromL1, fromL2, by.total(), by);
    }

    /** Every request that ended so far, in the order they ended. */
    public List<RequestTokens> requests() {
        return List.copyOf(requests);
    }

    /** Keys ever claimed in the run. */
    public int keysSeen() {
        return fates == null ? 0 : fates.size();
    }
}
