package dev.kvtier.property.chain;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;

/**
 * The event stream must say what the core's API answered: the checkers, the journal and replay see only events, so
 * a decision the core makes without emitting it (or emits differently from what it returns) would go unseen. Each
 * audit compares one call's return value with the events it emitted.
 */
final class EventAudit {
    private EventAudit() {}

    /** The last event is the Lookup of these keys, answered with this prefix length. */
    static void lookup(final List<CoreHarness.Recorded> recorded, final int modelId, final List<PrefixKey> keys,
                       final List<AllocationRef> prefix) {
        final CoreEvent last = recorded.isEmpty() ? null : recorded.getLast().event();
        final CoreEvent expected = new CoreEvent.Lookup(modelId, keys, prefix.size());
        if (!expected.equals(last)) {
            throw new AssertionError("lookup answered " + prefix.size() + " but emitted " + last);
        }
    }

    /** The allocation request and one Allocated or AllocationSkipped per key, in order, matching the results. */
    static void allocate(final List<CoreHarness.Recorded> recorded, final long request, final int modelId,
                         final List<PrefixKey> keys, final List<AllocationResult> results) {
        int i = recorded.size() - 1;
        while (i >= 0
            && !(recorded.get(i).event() instanceof CoreEvent.AllocateRequested a && a.requestId() == request)) {
            i--;
        }
        if (i < 0) {
            throw new AssertionError("allocate req" + request + " emitted no AllocateRequested");
        }
        final CoreEvent.AllocateRequested asked = (CoreEvent.AllocateRequested) recorded.get(i).event();
        if (asked.modelId() != modelId || !asked.keys().equals(keys)) {
            throw new AssertionError("allocate req" + request + " emitted " + asked);
        }
        int r = 0;
        for (int j = i + 1; j < recorded.size(); j++) {
            final CoreEvent e = recorded.get(j).event();
            if (e instanceof CoreEvent.Allocated || e instanceof CoreEvent.AllocationSkipped) {
                if (r >= results.size() || !matches(e, request, results.get(r))) {
                    throw new AssertionError("allocate req" + request + " result " + r + " is "
                        + (r < results.size() ? results.get(r) : "none") + " but the core emitted " + e);
                }
                r++;
            }
        }
        if (r != results.size()) {
            throw new AssertionError(
                "allocate req" + request + " returned " + results.size() + " results, emitted " + r);
        }
    }

    /**
     * A commit call emits CommitRequested, then, by the time it answers, one Committed per allocation it counts as
     * committed ({@code emitted} runs from the call to the answer; in durable mode other operations' events are
     * among them, so only Committed events of {@code refs} count).
     */
    static void commit(final List<CoreHarness.Recorded> emitted, final List<AllocationRef> refs, final int committed) {
        if (emitted.isEmpty() || !new CoreEvent.CommitRequested(refs).equals(emitted.getFirst().event())) {
            throw new AssertionError("commit of " + refs + " emitted " + emitted);
        }
        final long n = emitted.stream().filter(r -> r.event() instanceof CoreEvent.Committed c
            && refs.stream().anyMatch(ref -> ref.allocationId() == c.allocationId() && ref.key().equals(c.key())))
            .count();
        if (n != committed) {
            throw new AssertionError("commit returned " + committed + " but emitted " + n + " Committed events");
        }
    }

    private static boolean matches(final CoreEvent e, final long request, final AllocationResult result) {
        return switch (result) {
            case AllocationResult.Claimed c -> e.equals(new CoreEvent.Allocated(request, c.ref().key(),
                c.ref().allocationId(), c.ref().startSlot(), c.ref().slotCount()));
            case AllocationResult.Skipped s -> e.equals(new CoreEvent.AllocationSkipped(request, s.key(), s.reason()));
        };
    }
}
