package dev.kvtier.harness.check;

import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.util.Distinct;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Invariants 7, 8, 9 and the "commit nothing" half of 13.
 * <ul>
 *   <li>7/8: the spans a client sent (StoreSent) must reach L1 (the store's EntryInserted events) in the order
 *   sent, rejected spans skipped; with coalescing off one entry per span, with it on each entry is a run of
 *   consecutive sent spans contiguous in source and file, its source offset the first span's.</li>
 *   <li>9: a request's staging batches (BatchSent + StoreSent) hold at most {@code stagingBatchSlots} slots, tile
 *   their staging buffer back to back (in the order sent, or in its reverse under the reversed
 *   {@code stagingLayout}), and together write the request's de-duplicated specs slot by slot in prefix
 *   order.</li>
 *   <li>13: an allocation with a rejected span (stale, or any other reason) is never committed; and the boundary
 *   rejects exactly the spans docs/design/STORAGE-CORE.md calls bad, for the reason it names: a span not 4096-aligned
 * in file   offset, length or source offset is MISALIGNED, an aligned one not inside its allocation's slots is
 *   OUTSIDE_ALLOCATION, and one longer than L1's pool (not stale) LARGER_THAN_L1 (this checker's own arithmetic, not
 *   the server's). STALE and COMMITTED are the directory's to say ({@link DirectoryChecker} checks COMMITTED).</li>
 * </ul>
 * Skips: the bytes themselves (invariant 12 checks them on load). Maps are used for point look-ups only.
 */
public final class SpanChecker implements Checker {
    /**
     * A request's slots in prefix order, (allocation id, file offset) each, taken from the front: two arrays of the
     * request's size instead of a record per slot in a deque.
     */
    private static final class Slots {
        private final long[] allocationIds;
        private final long[] fileOffsets;
        private int head;

        Slots(final int count) {
            allocationIds = new long[count];
            fileOffsets = new long[count];
        }

        int size() {
            return allocationIds.length - head;
        }

        boolean isEmpty() {
            return size() == 0;
        }

        /** True when the next slot is this one, and takes it; false (taking nothing) when none is left. */
        boolean takeIfNext(final long allocationId, final long fileOffset) {
            if (isEmpty()) {
                return false;
            }
            final boolean match = allocationIds[head] == allocationId && fileOffsets[head] == fileOffset;
            head++;
            return match;
        }

        /** The slot just taken, as the record it replaced printed it. */
        String lastTaken() {
            return "Slot[allocationId=" + allocationIds[head - 1] + ", fileOffset=" + fileOffsets[head - 1] + "]";
        }
    }

    private final Map<Long, ArrayDeque<SpanPiece>> sent = new HashMap<>();
    private final Map<Long, Set<String>> rejected = new HashMap<>();
    private final Map<Long, Map<String, RejectReason>> reasons = new HashMap<>();
    private final Map<Long, Slots> expectedSlots = new HashMap<>();
    private final Map<Long, Integer> nextBatch = new HashMap<>();
    private final Map<Long, Long> storeToRequest = new HashMap<>();
    private final Set<Long> staleAllocations = new HashSet<>();
    /** Stores sent and not completed, per allocation id they write into (a commit must not run ahead of them). */
    private final Map<Long, Integer> storesInFlight = new HashMap<>();
    /** The allocation ids each store in flight writes into. */
    private final Map<Long, long[]> storeAllocations = new HashMap<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.SaveQueued e -> expect(ctx.config().slotBytes(), e);
            case CoreEvent.BatchSent e -> batchSent(ctx, e);
            case CoreEvent.StoreSent e -> storeSent(ctx, e);
            case CoreEvent.SpanRejected e -> {
                rejected.computeIfAbsent(e.storeId(), k -> new HashSet<>()).add(pieceId(e.allocationId(),
                    e.fileOffset()));
                reasons.computeIfAbsent(e.storeId(), k -> new HashMap<>()).put(pieceId(e.allocationId(),
                    e.fileOffset()), e.reason());
                staleAllocations.add(e.allocationId());
            }
            case CoreEvent.SpansCoalesced e -> boundaryRejections(ctx, e.storeId());
            case CoreEvent.EntryInserted e -> {
                if (!e.headroom()) {
                    inserted(ctx, e);
                }
            }
            case CoreEvent.StoreCompleted e -> {
                storeDone(e.storeId());
                completed(ctx, e.storeId());
            }
            case CoreEvent.Committed e -> {
                if (storesInFlight.containsKey(e.allocationId())) {
                    ctx.fail(Invariant.STAGING, "allocation " + e.allocationId() + " of key " + e.key() + " was "
                        + "committed while a store into it was in flight: a commit ran ahead of its batches");
                }
                // (isEmpty first: a commit's allocation id is boxed only when some allocation had a rejected span)
                if (!staleAllocations.isEmpty() && staleAllocations.contains(e.allocationId())) {
                    ctx.fail(Invariant.STALE_NOTHING, "allocation " + e.allocationId() + " of key " + e.key()
                        + " had a rejected span and was committed");
                }
            }
            case CoreEvent.RequestCommitted e -> {
                final Slots left = expectedSlots.remove(e.requestId());
                if (!(left == null || left.isEmpty())) {
                    ctx.fail(Invariant.STAGING, "request " + e.requestId() + " committed with "
                        + (left == null ? 0 : left.size()) + " slots never staged");
                }
                nextBatch.remove(e.requestId());
            }
            default -> {
                // no effect on span order
            }
        }
    }

    private void expect(final long slotBytes, final CoreEvent.SaveQueued e) {
        final List<StoreSpec> specs = Distinct.inOrder(e.specs());
        int count = 0;
        for (int k = 0; k < specs.size(); k++) {
            count += specs.get(k).blocks().size();
        }
        final Slots slots = new Slots(count);
        int at = 0;
        for (int k = 0; k < specs.size(); k++) {
            final StoreSpec s = specs.get(k);
            for (int i = 0; i < s.blocks().size(); i++) {
                slots.allocationIds[at] = s.alloc().allocationId();
                slots.fileOffsets[at++] = s.fileOffset() + i * slotBytes;
            }
        }
        expectedSlots.put(e.requestId(), slots);
        nextBatch.put(e.requestId(), 0);
    }

    private void batchSent(final CheckContext ctx, final CoreEvent.BatchSent e) {
        final Integer next = nextBatch.get(e.requestId());
        if (!(next != null && next == e.batchIndex())) {
            ctx.fail(Invariant.STAGING,
                "request " + e.requestId() + " sent batch " + e.batchIndex() + ", expected " + next);
        }
        nextBatch.put(e.requestId(), next + 1);
        storeToRequest.put(e.storeId(), e.requestId());
    }

    /** A store into allocations: each of them has one more store in flight until it completes. */
    private void storeInFlight(final CoreEvent.StoreSent e) {
        final long[] ids = new long[e.spans().size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = e.spans().get(i).alloc().allocationId();
            storesInFlight.merge(ids[i], 1, Integer::sum);
        }
        storeAllocations.put(e.storeId(), ids);
    }

    private void storeDone(final long storeId) {
        final long[] ids = storeAllocations.remove(storeId);
        if (ids != null) {
            for (final long id : ids) {
                storesInFlight.computeIfPresent(id, (k, n) -> n == 1 ? null : n - 1);
            }
        }
    }

    private void storeSent(final CheckContext ctx, final CoreEvent.StoreSent e) {
        final long slotBytes = ctx.config().slotBytes();
        storeInFlight(e);
        sent.put(e.storeId(), new ArrayDeque<>(e.spans()));
        final Long request = storeToRequest.remove(e.storeId());
        if (request == null) {
            return;
        }
        final Slots expected = expectedSlots.get(request);
        // The pieces tile the batch back to back: in the order sent (packed), or in its reverse (reversed)
        final boolean reversed = ctx.config().stagingLayout() == StagingLayout.REVERSED;
        long total = 0;
        for (final SpanPiece p : e.spans()) {
            total += p.lengthBytes();
        }
        final long base = e.spans().isEmpty() ? 0
            : (reversed ? e.spans().getLast() : e.spans().getFirst()).srcOffset();
        long done = 0;
        for (final SpanPiece p : e.spans()) {
            final long want = reversed ? base + total - done - p.lengthBytes() : base + done;
            if (!(p.srcOffset() == want)) {
                ctx.fail(Invariant.STAGING, "store " + e.storeId() + " spans do not tile the batch "
                    + ctx.config().stagingLayout().name().toLowerCase(Locale.ROOT) + " at " + p.srcOffset()
                    + ", expected " + want);
            }
            for (long at = 0; at < p.lengthBytes(); at += slotBytes) {
                final boolean some = !expected.isEmpty();
                if (!expected.takeIfNext(p.alloc().allocationId(), p.fileOffset() + at)) {
                    ctx.fail(Invariant.STAGING, "request " + request + " staged slot at file " + (p.fileOffset() + at)
                        + " of allocation " + p.alloc().allocationId() + "; prefix order wants "
                        + (some ? expected.lastTaken() : null));
                }
            }
            done += p.lengthBytes();
        }
        final int batchSlots = SpecModel.stagingBatchSlots(ctx.config());
        if (!(total / slotBytes <= batchSlots)) {
            ctx.fail(Invariant.STAGING, "batch of " + total / slotBytes + " slots exceeds " + batchSlots);
        }
    }

    private void inserted(final CheckContext ctx, final CoreEvent.EntryInserted e) {
        final ArrayDeque<SpanPiece> queue = sent.get(e.opId());
        if (!(queue != null)) {
            ctx.fail(Invariant.SPAN_ORDER_OFF, "entry inserted by store " + e.opId() + " which sent nothing");
        }
        // (isEmpty first: the store id is boxed for the look-up only when some store has a rejected span)
        final Set<String> skip = rejected.isEmpty() ? Set.of() : rejected.getOrDefault(e.opId(), Set.of());
        while (!skip.isEmpty() && !queue.isEmpty() && skip.contains(pieceId(queue.peek()))) {
            queue.poll();
        }
        final boolean coalesce = ctx.config().coalesceStoreSpans();
        final Invariant inv = coalesce ? Invariant.SPAN_COALESCE_ON : Invariant.SPAN_ORDER_OFF;
        final SpanPiece first = queue.poll();
        if (!(first != null && first.fileOffset() == e.fileOffset() && first.srcOffset() == e.srcOffset())) {
            ctx.fail(inv, "store " + e.opId() + " inserted [file " + e.fileOffset() + ", src " + e.srcOffset()
                + "] but the next span sent is " + first);
        }
        long covered = first.lengthBytes();
        SpanPiece last = first;
        List<SpanPiece> run = null; // the spans joined after the first, for the messages only
        while (covered < e.lengthBytes() && coalesce) {
            final SpanPiece next = queue.poll();
            if (!(next != null && next.srcOffset() == last.srcEnd() && next.fileOffset() == last.fileEnd())) {
                ctx.fail(inv, "entry at " + e.fileOffset() + " joins spans not contiguous in source and file: "
                    + joined(first, run) + " then " + next);
            }
            if (run == null) {
                run = new ArrayList<>();
            }
            run.add(next);
            covered += next.lengthBytes();
            last = next;
        }
        if (!(covered == e.lengthBytes())) {
            ctx.fail(inv, "entry at " + e.fileOffset() + " of " + e.lengthBytes() + " B does not match the spans sent ("
                + covered + " B): " + joined(first, run));
        }
    }

    /** The spans an entry joins, as a list: {@code first}, then {@code rest} (null for none). */
    private static List<SpanPiece> joined(final SpanPiece first, final List<SpanPiece> rest) {
        final List<SpanPiece> all = new ArrayList<>();
        all.add(first);
        if (rest != null) {
            all.addAll(rest);
        }
        return all;
    }

    /**
     * Every span of a store the boundary is done with: rejected as misaligned, outside its allocation or larger than
     * L1 exactly when it is (staleness is the directory's to say).
     */
    private void boundaryRejections(final CheckContext ctx, final long storeId) {
        final ArrayDeque<SpanPiece> spans = sent.get(storeId);
        final Map<String, RejectReason> got = reasons.remove(storeId);
        for (final SpanPiece p : spans == null ? List.<SpanPiece>of() : spans) {
            if (p.srcEnd() > ctx.config().stagingPoolBytes()) {
                continue; // a source other than the client's staging (a calibration): its size is not known here
            }
            final RejectReason want = badReason(ctx, p);
            final RejectReason seen = got == null ? null : got.get(pieceId(p));
            // A span fit to store may still be stale or into a committed allocation (the directory knows); one larger
            // than L1's pool, if neither, must be rejected as such, and no other span may be.
            final boolean larger = want == null && p.lengthBytes() > SpecModel.poolBytes(ctx.config());
            final boolean staleOrLarger = seen == RejectReason.STALE || seen == RejectReason.COMMITTED
                || (larger && seen == RejectReason.LARGER_THAN_L1);
            final boolean ok = want != null ? seen == want : seen == null ? !larger : staleOrLarger;
            if (!ok) {
                ctx.fail(Invariant.STALE_NOTHING, "store " + storeId + " span " + p + " is "
                    + (want != null ? want : larger ? "larger than L1" : "aligned, inside its allocation and fits L1")
                    + " but the boundary said " + seen);
            }
        }
    }

    /** MISALIGNED, OUTSIDE_ALLOCATION or null, from docs/design/STORAGE-CORE.md (alignment 4096; a span inside its
     * slots). */
    private static RejectReason badReason(final CheckContext ctx, final SpanPiece p) {
        final long page = 4096;
        final long slot = ctx.config().slotBytes();
        if (p.fileOffset() % page != 0 || p.lengthBytes() % page != 0 || p.srcOffset() % page != 0) {
            return RejectReason.MISALIGNED;
        }
        final long start = p.alloc().startSlot() * slot;
        final long end = (p.alloc().startSlot() + (long) p.alloc().slotCount()) * slot;
        return p.fileOffset() < start || p.fileEnd() > end ? RejectReason.OUTSIDE_ALLOCATION : null;
    }

    /** A rejected span is named by its allocation and file offset: a stale span and a current one may share slots. */
    private static String pieceId(final long allocationId, final long fileOffset) {
        return allocationId + "@" + fileOffset;
    }

    private static String pieceId(final SpanPiece p) {
        return pieceId(p.alloc().allocationId(), p.fileOffset());
    }

    private void completed(final CheckContext ctx, final long storeId) {
        final ArrayDeque<SpanPiece> queue = sent.remove(storeId);
        final Set<String> skip = rejected.remove(storeId);
        if (queue == null) {
            return;
        }
        for (final SpanPiece p : queue) {
            if (!(skip != null && skip.contains(pieceId(p)))) {
                ctx.fail(Invariant.SPAN_ORDER_OFF,
                    "store " + storeId + " completed without admitting or rejecting span " + p);
            }
        }
    }
}
