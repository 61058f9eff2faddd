package dev.kvtier.journal.codec;

/**
 * Descriptor of the canonical binary encoding of one {@link dev.kvtier.core.event.CoreEvent} (STYLE rule 15). The
 * same bytes are stored in a journal excerpt and hashed by {@link EventDigest}.
 *
 * <pre>
 *   event    = tag:u8  field*                      fields in record component order ({@link EventFields})
 *   int      = zigzag varint, 1..5 bytes          7 bits per byte, low group first, high bit = more follows
 *   long     = zigzag varint, 1..10 bytes         the shortest form only: a last byte of 0 is rejected
 *   boolean  = u8, 0 or 1
 *   enum     = u8 ordinal                          (reordering an enum of CoreEvent needs a new format version)
 *   text     = count:varint  utf8[count]           count &lt;= MAX_TEXT_BYTES, well-formed UTF-8 only
 *   key      = hi:i64le  lo:i64le                  (16 bytes: hashes do not shrink)
 *   ref      = key  allocationId:long  startSlot:int  slotCount:int
 *   spec     = ref  blocks:list(int)  fileOffset:long
 *   piece    = ref  srcOffset:long  fileOffset:long  lengthBytes:long
 *   range    = ref  fileOffset:long  lengthBytes:long  destOffset:long
 *   list(T)  = count:varint  T[count]              count &lt;= MAX_LIST_COUNT
 *
 *   e.g. Allocated(requestId 7, key, allocationId 300, startSlot 12, slotCount 1):
 *   +----+----+-----------------+-----------------+-------+----+----+
 *   | 03 | 0e | hi (8 bytes LE) | lo (8 bytes LE) | d8 04 | 18 | 02 |     = 22 bytes
 *   +----+----+-----------------+-----------------+-------+----+----+
 * </pre>
 *
 * The encoding is prefix-free (the tag fixes the field list, every field is self-delimiting), so a sequence of
 * encoded events needs no framing to be unambiguous. Tags are stable: a new record gets the next free tag, and a tag
 * is never reused. Tag 0 is never valid, so zeroed bytes do not decode.
 */
public final class EventLayout {

    public static final int LOOKUP = 1;
    public static final int ALLOCATE_REQUESTED = 2;
    public static final int ALLOCATED = 3;
    public static final int ALLOCATION_SKIPPED = 4;
    public static final int RING_WRAPPED = 5;
    public static final int RING_EVICTED = 6;
    public static final int CLAIM_RELEASED = 7;
    public static final int COMMIT_REQUESTED = 8;
    public static final int COMMITTED = 9;
    public static final int LATE_COMMIT = 10;
    public static final int STORE_SENT = 11;
    public static final int STORE_RECEIVED = 12;
    public static final int SPAN_REJECTED = 13;
    public static final int SPANS_COALESCED = 14;
    public static final int SLICE_RESERVED = 15;
    public static final int ENTRY_INSERTED = 16;
    public static final int ENTRY_EVICTED = 17;
    public static final int SLICE_FREED = 18;
    public static final int MEMORY_WAIT = 19;
    public static final int TRIMMED = 20;
    public static final int STORE_COMPLETED = 21;
    public static final int BATCH_SEALED = 22;
    public static final int IO_SUBMITTED = 23;
    public static final int IO_COMPLETED = 24;
    public static final int WRITE_FINISHED = 25;
    public static final int LOAD_REQUESTED = 26;
    public static final int LOAD_HIT = 27;
    public static final int LOAD_GAP = 28;
    public static final int LOAD_WAITS_FOR_WRITE = 29;
    public static final int PROMOTED = 30;
    public static final int PROMOTION_DISCARDED = 31;
    public static final int LOAD_COMPLETED = 32;
    public static final int LOAD_FAILED = 33;
    public static final int SAVE_QUEUED = 34;
    public static final int BATCH_SENT = 35;
    public static final int BATCH_STAGED = 36;
    public static final int REQUEST_RELEASED = 37;
    public static final int REQUEST_COMMITTED = 38;
    public static final int DRAIN_REQUESTED = 39;
    public static final int DRAINED = 40;
    public static final int PHASE_STARTED = 41;
    public static final int REQUEST_ARRIVED = 42;
    public static final int REQUEST_FINISHED = 43;
    public static final int CHECKSUM_MISMATCH = 44;
    public static final int INDEX_OPEN_REQUESTED = 45;
    public static final int INDEX_IO_SUBMITTED = 46;
    public static final int INDEX_IO_COMPLETED = 47;
    public static final int INDEX_CHECKPOINTED = 48;
    public static final int INDEX_OPENED = 49;
    public static final int INDEX_FAILED = 50;
    public static final int COMMIT_PENDING = 51;
    public static final int COMMIT_REFUSED = 52;
    public static final int CHUNK_RECOVERED = 53;
    public static final int SHUTDOWN_REQUESTED = 54;
    public static final int SHUTDOWN_COMPLETED = 55;
    public static final int DELIVERED = 56;
    public static final int STEP_COMPLETED = 57;
    public static final int LOAD_WAITED = 58;

    /** The record name of each tag (index = tag; index 0 is unused); a test checks it against the records. */
    public static final java.util.List<String> TYPE_NAMES = java.util.List.of(
        "", "Lookup", "AllocateRequested", "Allocated", "AllocationSkipped", "RingWrapped", "RingEvicted",
        "ClaimReleased", "CommitRequested", "Committed", "LateCommit", "StoreSent", "StoreReceived", "SpanRejected",
        "SpansCoalesced", "SliceReserved", "EntryInserted", "EntryEvicted", "SliceFreed", "MemoryWait", "Trimmed",
        "StoreCompleted", "BatchSealed", "IoSubmitted", "IoCompleted", "WriteFinished", "LoadRequested", "LoadHit",
        "LoadGap", "LoadWaitsForWrite", "Promoted", "PromotionDiscarded", "LoadCompleted", "LoadFailed",
        "SaveQueued", "BatchSent", "BatchStaged", "RequestReleased", "RequestCommitted", "DrainRequested",
        "Drained", "PhaseStarted", "RequestArrived", "RequestFinished", "ChecksumMismatch", "IndexOpenRequested",
        "IndexIoSubmitted", "IndexIoCompleted", "IndexCheckpointed", "IndexOpened", "IndexFailed", "CommitPending",
        "CommitRefused", "ChunkRecovered", "ShutdownRequested", "ShutdownCompleted", "Delivered", "StepCompleted",
        "LoadWaited");

    /** The highest tag in use. */
    public static final int TAG_MAX = LOAD_WAITED;
    /** The largest encoded event, in bytes. */
    public static final int MAX_EVENT_BYTES = 4 << 20;
    /** The largest text field, in UTF-8 bytes. */
    public static final int MAX_TEXT_BYTES = 4096;
    /** The most elements in one list field. */
    public static final int MAX_LIST_COUNT = 1 << 18;
    /** Bytes of an encoded {@link dev.kvtier.core.value.PrefixKey}. */
    public static final int KEY_BYTES = 16;
    /** The longest varint encoding of a long, in bytes. */
    public static final int VARLONG_BYTES_MAX = 10;

    private EventLayout() {}

    /** The tag of the record named {@code typeName}, or -1. */
    public static int tagOf(final String typeName) {
        return TYPE_NAMES.indexOf(typeName) > 0 ? TYPE_NAMES.indexOf(typeName) : -1;
    }

    /** Checks that {@code tag} names a record; returns it. */
    public static int checkTag(final int tag) throws EventFormatException {
        if (tag < 1 || tag > TAG_MAX) {
            throw new EventFormatException("bad event tag " + tag + " (expected 1.." + TAG_MAX + ")");
        }
        return tag;
    }

    /** Checks that an encoded event of {@code lengthBytes} is within the limit; returns it. */
    public static int checkEventLength(final int lengthBytes) throws EventFormatException {
        if (lengthBytes < 1 || lengthBytes > MAX_EVENT_BYTES) {
            throw new EventFormatException(
                "bad event length " + lengthBytes + " (expected 1.." + MAX_EVENT_BYTES + ")");
        }
        return lengthBytes;
    }
}
