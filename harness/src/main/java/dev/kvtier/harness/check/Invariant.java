package dev.kvtier.harness.check;

/** The invariants of docs/design/STORAGE-CORE.md section 7, by number. */
public enum Invariant {
    CAPACITY(1, "resident <= l1Bytes and resident + pending-write-owned <= pool"),
    ENTRIES_DISJOINT(2, "entries pairwise disjoint; the entry map holds exactly the resident entries"),
    TRIM_BOUND(3, "after a store, resident <= max(stored, saveTarget), the trim stopping at it; saveTarget + H = l1"),
    HEADROOM_FIRST(4, "no normal entry evicted while a headroom entry is resident"),
    VICTIM_ORDER(5, "within a class the policy's order (LRU, or suffix first in a group)"),
    SLICE_OWNERSHIP(6, "a slice owned by a pending write is never reused before it completes; freed exactly once"),
    SPAN_ORDER_OFF(7, "coalescing off: the layer receives spans in the order sent"),
    SPAN_COALESCE_ON(8, "coalescing on: outputs are concatenations of contiguous inputs, mapping preserved"),
    STAGING(9, "staging spans in prefix order; batch bounds hold; duplicates once"),
    WRITE_ORDER(10, "for any byte range, L2 writes complete in store order"),
    LOOKUP_PREFIX(11, "lookup returns only committed keys of the caller's model, as a contiguous prefix; a committed "
        + "hit is never silently shortened"),
    LOAD_BYTES(12, "a load of a committed key returns exactly the bytes last stored for it"),
    STALE_NOTHING(13, "stale spans write and commit nothing; an uncommitted allocation is never visible"),
    RING(14, "ring chunks disjoint; ring eviction follows allocation order"),
    CRASH(15, "after a crash and restart no wrong bytes; durable commits survive"),
    LIVENESS(16, "every request ends within its bounds (after lookup; TTFT from arrival); released exactly once");

    private final int number;
    private final String title;

    Invariant(final int number, final String title) {
        this.number = number;
        this.title = title;
    }

    public int number() {
        return number;
    }

    public String title() {
        return title;
    }
}
