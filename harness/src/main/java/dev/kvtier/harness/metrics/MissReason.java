package dev.kvtier.harness.metrics;

/**
 * Why an input token was prefilled by the engine instead of loaded from the store (issue 33 item 4). A block of a
 * request that its lookup did not find gets the reason of its key's last fate before that lookup; a block after the
 * first missing one whose own key was committed gets the first missing block's reason (the lookup stops there); a
 * block the lookup found and the load then failed to bring gets the failure's reason.
 */
public enum MissReason {
    /** No writer ever claimed the key: the prefix was never seen before (or never stored). */
    FIRST_SIGHT(0, "first sight", "firstSight"),
    /** The key's chunk left the L2 ring for space (or at a wrap), or is larger than the whole ring. */
    EVICTED(1, "evicted for capacity", "evicted"),
    /** The key was dropped after a failed write, a checksum mismatch or a commit that could not be made durable. */
    FAULT(2, "lost to a fault or corruption", "fault"),
    /** The key was claimed or committed when the core crashed, and the restarted core did not recover it. */
    CRASH(3, "lost to a crash", "crash"),
    /** The key was claimed by a writer that had not committed it (or released its claim). */
    NOT_COMMITTED(4, "not yet committed", "notCommitted"),
    /** The lookup found the key committed, and it was evicted (an event said so) before the load could bring it. */
    CONCURRENT_EVICTION(5, "lookup shortened by a concurrent eviction", "concurrentEviction"),
    /** Tokens no store serves: a trailing partial block (it has no key), and a full hit's last token. */
    ALWAYS_COMPUTED(6, "always computed (partial block, full hit's last token)", "alwaysComputed");

    private final int index;
    private final String label;
    private final String field;

    MissReason(final int index, final String label, final String field) {
        this.index = index;
        this.label = label;
        this.field = field;
    }

    /** Its position among {@link PrefilledBy}'s components, and in an array of tokens by reason. */
    public int index() {
        return index;
    }

    /** The reason in words, as the summary prints it. */
    public String label() {
        return label;
    }

    /** The reason's name in the report ({@link PrefilledBy}'s component) and in the requests CSV. */
    public String field() {
        return field;
    }
}
