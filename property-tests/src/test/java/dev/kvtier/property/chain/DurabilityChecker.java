package dev.kvtier.property.chain;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.Checker;
import dev.kvtier.harness.check.Invariant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Invariant 15 across the chain's crashes, as a model built from events; it lives as long as the chain, not as long
 * as one core. It keeps the live allocations of the current core (Allocated, ChunkRecovered; RingEvicted and a
 * released claim remove them) and the acknowledged commits: a Committed event, or a chunk recovered after an earlier
 * crash that had to survive it. At a {@link #crashed crash}, in {@code durable} mode the acknowledged commits that
 * the ring still held become the allocations that must survive; after the restart each must be committed in the
 * recovered index ({@link #recovered}), and none of them may later fail its checksum unless a {@code corrupt} step
 * hit its slots while it was live (corruption is outside the durability claim: {@link #corrupted}). In either mode,
 * an allocation committed by the current core (not recovered) must not fail its checksum either, unless corrupted:
 * its bytes were written by this core and nothing was lost since. The harness asks {@link #mustLoad} when it loads
 * every committed chunk after a restart and at the chain's end.
 *
 * <p>What it skips: wrong bytes served by a load (the harness checks those against each key's content and reports
 * them as invariant 15 after a crash, 12 before); a recovered allocation that was not acknowledged before the crash
 * may fail its checksum, since its data may have been lost or torn: an {@code l1}-mode commit, a durable one whose
 * callback had not run, or one evicted before the crash whose EVICT record did not reach the index device (its slots
 * may hold a later allocation's unflushed write). Such an allocation is visible after the restart without being
 * acknowledged, and stays unacknowledged across later crashes. Maps keyed by allocation id are point look-ups; the
 * maps keyed by key are ordered.
 */
final class DurabilityChecker implements Checker {
    private final boolean durable;
    private final Map<Long, AllocationRef> live = new HashMap<>();
    private final Map<PrefixKey, AllocationRef> acknowledged = new LinkedHashMap<>();
    private final Set<AllocationRef> committedThisLife = new HashSet<>();
    private final Set<AllocationRef> recoveredThisLife = new HashSet<>();
    private final Set<AllocationRef> corruptedWhileLive = new HashSet<>();
    private Map<PrefixKey, AllocationRef> mustSurvive = new LinkedHashMap<>();
    private int crashes;
    private long survivorsChecked;
    private long survivorsLoaded;

    DurabilityChecker(final boolean durable) {
        this.durable = durable;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.Allocated e -> live.put(e.allocationId(),
                new AllocationRef(e.key(), e.allocationId(), e.startSlot(), e.slotCount()));
            case CoreEvent.ChunkRecovered e -> {
                final AllocationRef ref = new AllocationRef(e.key(), e.allocationId(), e.startSlot(), e.slotCount());
                live.put(e.allocationId(), ref);
                recoveredThisLife.add(ref);
                if (ref.equals(mustSurvive.get(e.key()))) {
                    acknowledged.put(e.key(), ref); // still acknowledged: it must survive the next crash too
                }
            }
            case CoreEvent.Committed e -> {
                final AllocationRef ref = live.get(e.allocationId());
                if (ref != null) {
                    acknowledged.put(e.key(), ref);
                    committedThisLife.add(ref);
                }
            }
            case CoreEvent.ClaimReleased e -> {
                if (e.released()) {
                    live.remove(e.ref().allocationId());
                }
            }
            case CoreEvent.RingEvicted e -> evicted(ctx, e);
            default -> {
                // no effect on durability
            }
        }
    }

    private void evicted(final CheckContext ctx, final CoreEvent.RingEvicted e) {
        final AllocationRef ref = live.remove(e.allocationId());
        final AllocationRef ack = acknowledged.get(e.key());
        if (ack != null && ack.allocationId() == e.allocationId()) {
            acknowledged.remove(e.key());
        }
        final AllocationRef survivor = mustSurvive.get(e.key());
        final boolean survives = survivor != null && survivor.allocationId() == e.allocationId();
        if (survives) {
            mustSurvive.remove(e.key());
        }
        if (e.reason() != RingEvictReason.CORRUPT || ref == null || corruptedWhileLive.contains(ref)) {
            return;
        }
        if (survives) {
            ctx.fail(Invariant.CRASH, "key " + CoreHarness.label(e.key()) + " (allocation " + e.allocationId()
                + ") was committed durably before crash " + crashes + " and failed its checksum after the restart,"
                + " with no corrupt step over its slots: a durable commit was lost");
        }
        if (committedThisLife.contains(ref)) {
            ctx.fail(Invariant.LOAD_BYTES, "key " + CoreHarness.label(e.key()) + " (allocation " + e.allocationId()
                + ") was committed by this core and failed its checksum, with no crash since and no corrupt step"
                + " over its slots");
        }
    }

    /** A {@code corrupt} step hit {@code [fileOffset, +lengthBytes)}: every allocation live over it is exempt. */
    void corrupted(final long fileOffset, final long lengthBytes, final long slotBytes) {
        for (final AllocationRef ref : live.values()) {
            final long from = ref.fileOffset(slotBytes);
            if (from < fileOffset + lengthBytes && fileOffset < from + ref.lengthBytes(slotBytes)) {
                corruptedWhileLive.add(ref);
            }
        }
    }

    /** The core crashed: in {@code durable} mode every acknowledged commit the ring still held must survive. */
    void crashed() {
        crashes++;
        mustSurvive = durable ? new LinkedHashMap<>(acknowledged) : new LinkedHashMap<>();
        acknowledged.clear();
        live.clear();
        committedThisLife.clear();
        recoveredThisLife.clear();
    }

    /**
     * The restarted core opened its index; {@code isCommitted} says whether it holds an allocation committed. Fails
     * at the first acknowledged durable commit that is not there. Corruption marks of allocations that did not come
     * back are dropped (their ids may be given again).
     */
    void recovered(final CheckContext ctx, final Predicate<AllocationRef> isCommitted) {
        for (final AllocationRef ref : new ArrayList<>(mustSurvive.values())) {
            survivorsChecked++;
            if (!isCommitted.test(ref)) {
                ctx.fail(Invariant.CRASH, "key " + CoreHarness.label(ref.key()) + " (allocation "
                    + ref.allocationId() + ", slots " + ref.startSlot() + "+" + ref.slotCount() + ") was committed"
                    + " durably before crash " + crashes + " and is not in the recovered index");
            }
        }
        corruptedWhileLive.retainAll(recoveredThisLife);
    }

    /**
     * Whether a load of {@code ref} must succeed: it is an acknowledged durable commit that survived, or was
     * committed by this core, and no corrupt step hit it.
     */
    boolean mustLoad(final AllocationRef ref) {
        if (corruptedWhileLive.contains(ref)) {
            return false;
        }
        final AllocationRef survivor = mustSurvive.get(ref.key());
        return ref.equals(survivor) || committedThisLife.contains(ref);
    }

    /** True while {@code ref} is an acknowledged commit of its key (committed, or a survivor of a crash). */
    boolean acknowledged(final AllocationRef ref) {
        return ref.equals(acknowledged.get(ref.key()));
    }

    /** {@code ref} was loaded and its bytes checked; true when it is a durable commit that survived a crash. */
    boolean survivorLoaded(final AllocationRef ref) {
        final boolean survivor = ref.equals(mustSurvive.get(ref.key()));
        if (survivor) {
            survivorsLoaded++;
        }
        return survivor;
    }

    int crashes() {
        return crashes;
    }

    /** Durable commits checked present after restarts. */
    long survivorsChecked() {
        return survivorsChecked;
    }

    /** Durable commits loaded and byte-checked after restarts. */
    long survivorsLoaded() {
        return survivorsLoaded;
    }

    /** Allocations that must still survive (not evicted by the restarted core), oldest first. */
    List<AllocationRef> mustSurvive() {
        return List.copyOf(mustSurvive.values());
    }
}
