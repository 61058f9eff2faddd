package dev.kvtier.journal.codec;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.AllocateRequested;
import dev.kvtier.core.event.CoreEvent.Allocated;
import dev.kvtier.core.event.CoreEvent.AllocationSkipped;
import dev.kvtier.core.event.CoreEvent.BatchSealed;
import dev.kvtier.core.event.CoreEvent.BatchSent;
import dev.kvtier.core.event.CoreEvent.BatchStaged;
import dev.kvtier.core.event.CoreEvent.ClaimReleased;
import dev.kvtier.core.event.CoreEvent.CommitRequested;
import dev.kvtier.core.event.CoreEvent.Committed;
import dev.kvtier.core.event.CoreEvent.DiscardReason;
import dev.kvtier.core.event.CoreEvent.DrainRequested;
import dev.kvtier.core.event.CoreEvent.Drained;
import dev.kvtier.core.event.CoreEvent.EntryEvicted;
import dev.kvtier.core.event.CoreEvent.EntryInserted;
import dev.kvtier.core.event.CoreEvent.IoCompleted;
import dev.kvtier.core.event.CoreEvent.IoSubmitted;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.event.CoreEvent.LateCommit;
import dev.kvtier.core.event.CoreEvent.LoadCompleted;
import dev.kvtier.core.event.CoreEvent.LoadFailed;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.event.CoreEvent.LoadGap;
import dev.kvtier.core.event.CoreEvent.LoadHit;
import dev.kvtier.core.event.CoreEvent.LoadRequested;
import dev.kvtier.core.event.CoreEvent.LoadWaitsForWrite;
import dev.kvtier.core.event.CoreEvent.Lookup;
import dev.kvtier.core.event.CoreEvent.MemoryWait;
import dev.kvtier.core.event.CoreEvent.PhaseStarted;
import dev.kvtier.core.event.CoreEvent.Promoted;
import dev.kvtier.core.event.CoreEvent.PromotionDiscarded;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.RequestArrived;
import dev.kvtier.core.event.CoreEvent.RequestCommitted;
import dev.kvtier.core.event.CoreEvent.RequestFinished;
import dev.kvtier.core.event.CoreEvent.RequestReleased;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.RingEvicted;
import dev.kvtier.core.event.CoreEvent.RingWrapped;
import dev.kvtier.core.event.CoreEvent.SaveQueued;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.event.CoreEvent.SliceFreed;
import dev.kvtier.core.event.CoreEvent.SliceReserved;
import dev.kvtier.core.event.CoreEvent.SpanRejected;
import dev.kvtier.core.event.CoreEvent.SpansCoalesced;
import dev.kvtier.core.event.CoreEvent.StoreCompleted;
import dev.kvtier.core.event.CoreEvent.StoreReceived;
import dev.kvtier.core.event.CoreEvent.StoreSent;
import dev.kvtier.core.event.CoreEvent.Trimmed;
import dev.kvtier.core.event.CoreEvent.WriteFinished;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;

import static dev.kvtier.journal.codec.EventLayout.*;

/**
 * The canonical binary encoding of {@link CoreEvent} records (layout in {@link EventLayout}). Encoding walks the
 * fields named by {@link EventFields} into an {@link EventBuffer}; decoding reads them back and must consume exactly
 * the given bytes. One instance per thread: it keeps a reusable cursor and writer, so encoding allocates nothing.
 *
 * <p>{@code decodeFields} is longer than the 70-line guide (STYLE rule 19): one case per tag.
 */
public final class EventCodec {
    private static final SkipReason[] SKIP_REASONS = SkipReason.values();
    private static final RingEvictReason[] RING_EVICT_REASONS = RingEvictReason.values();
    private static final L1EvictReason[] L1_EVICT_REASONS = L1EvictReason.values();
    private static final SealReason[] SEAL_REASONS = SealReason.values();
    private static final RejectReason[] REJECT_REASONS = RejectReason.values();
    private static final LoadFailure[] LOAD_FAILURES = LoadFailure.values();
    private static final DiscardReason[] DISCARD_REASONS = DiscardReason.values();
    private static final IoOp[] IO_OPS = IoOp.values();

    private final BinaryFieldWriter writer = new BinaryFieldWriter();
    private final EventCursor cursor = new EventCursor();

    /** Appends the canonical bytes of {@code event} to {@code out}. */
    public void encode(final CoreEvent event, final EventBuffer out) {
        encode(event, out, null);
    }

    /**
     * Appends {@code event} to {@code out}, its keys through {@code keys} (journal format 4: each key whole once, then
     * by number), or whole when {@code keys} is {@code null} (the canonical bytes).
     */
    public void encode(final CoreEvent event, final EventBuffer out, final KeyDictionary keys) {
        final int start = out.length();
        writer.target(out);
        writer.dictionary(keys);
        try {
            EventFields.visit(event, writer);
        } finally {
            writer.target(null);
            writer.dictionary(null);
        }
        if (out.length() - start > MAX_EVENT_BYTES) {
            throw new IllegalArgumentException("event encodes to " + (out.length() - start) + " bytes > "
                + MAX_EVENT_BYTES);
        }
        assert out.length() > start : "an event encodes to at least its tag";
    }

    /** The canonical bytes of {@code event}, in a new array. */
    public byte[] encode(final CoreEvent event) {
        final EventBuffer out = new EventBuffer(MAX_EVENT_BYTES);
        encode(event, out);
        return out.toByteArray();
    }

    /** Decodes exactly {@code [offset, offset + length)} of {@code source} as one event. */
    public CoreEvent decode(final byte[] source, final int offset, final int length) throws EventFormatException {
        return decode(source, offset, length, null);
    }

    /** As above, its keys read through {@code keys} (journal format 4), or whole when it is {@code null}. */
    public CoreEvent decode(final byte[] source, final int offset, final int length,
                            final KeyDictionary keys) throws EventFormatException {
        return decode(source, offset, length, keys, null);
    }

    /**
     * As above, and appends the event's canonical bytes (what {@link #encode(CoreEvent, EventBuffer)} writes for it)
     * to {@code canonical} when it is not {@code null}: the bytes read, with each dictionary key written whole. Only
     * the keys are written differently in format 4, so this is the event encoded again, without encoding it again.
     */
    public CoreEvent decode(final byte[] source, final int offset, final int length, final KeyDictionary keys,
                            final EventBuffer canonical) throws EventFormatException {
        checkEventLength(length);
        final EventCursor c = cursor.wrap(source, offset, length).dictionary(keys).canonical(canonical);
        final int tag = checkTag(c.u8());
        final CoreEvent event;
        try {
            event = decodeFields(tag, c);
        } catch (final IllegalArgumentException | NullPointerException e) {
            throw new EventFormatException("field of tag " + tag + " does not decode: " + e.getMessage());
        }
        if (c.remaining() != 0) {
            throw new EventFormatException(c.remaining() + " trailing bytes after event of tag " + tag);
        }
        c.endCanonical();
        return event;
    }

    private static CoreEvent decodeFields(final int tag, final EventCursor c) throws EventFormatException {
        return switch (tag) {
            case LOOKUP -> new Lookup(c.zigZagInt(), keys(c), c.zigZagInt());
            case ALLOCATE_REQUESTED -> new AllocateRequested(c.zigZagLong(), c.zigZagInt(), keys(c), c.zigZagInt());
            case ALLOCATED -> new Allocated(c.zigZagLong(), key(c), c.zigZagLong(), c.zigZagInt(), c.zigZagInt());
            case ALLOCATION_SKIPPED -> new AllocationSkipped(c.zigZagLong(), key(c), c.enumValue(SKIP_REASONS));
            case RING_WRAPPED -> new RingWrapped(c.zigZagInt(), c.zigZagInt());
            case RING_EVICTED -> new RingEvicted(key(c), c.zigZagLong(), c.zigZagInt(), c.zigZagInt(), c.bool(),
                c.zigZagInt(), c.enumValue(RING_EVICT_REASONS));
            case CLAIM_RELEASED -> new ClaimReleased(ref(c), c.bool());
            case COMMIT_REQUESTED -> new CommitRequested(refs(c));
            case COMMITTED -> new Committed(key(c), c.zigZagLong());
            case LATE_COMMIT -> new LateCommit(key(c), c.zigZagLong());
            case STORE_SENT -> new StoreSent(c.zigZagLong(), pieces(c));
            case STORE_RECEIVED -> new StoreReceived(c.zigZagLong(), c.zigZagInt(), c.zigZagLong());
            case SPAN_REJECTED -> new SpanRejected(c.zigZagLong(), key(c), c.zigZagLong(), c.zigZagLong(),
                c.zigZagLong(), c.enumValue(REJECT_REASONS));
            case SPANS_COALESCED -> new SpansCoalesced(c.zigZagLong(), c.zigZagInt(), c.zigZagInt());
            case SLICE_RESERVED -> new SliceReserved(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case ENTRY_INSERTED -> new EntryInserted(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagLong(),
                c.zigZagLong(), c.bool(), c.zigZagInt());
            case ENTRY_EVICTED -> new EntryEvicted(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.bool(),
                c.bool(), c.enumValue(L1_EVICT_REASONS));
            case SLICE_FREED -> new SliceFreed(c.zigZagLong(), c.zigZagLong());
            case MEMORY_WAIT -> new MemoryWait(c.zigZagLong(), c.zigZagLong());
            case TRIMMED -> new Trimmed(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagInt());
            case STORE_COMPLETED -> new StoreCompleted(c.zigZagLong(), c.zigZagInt(), c.zigZagInt(), c.zigZagLong());
            case BATCH_SEALED -> new BatchSealed(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagLong(),
                c.zigZagInt(), c.zigZagInt(), c.enumValue(SEAL_REASONS));
            case IO_SUBMITTED -> new IoSubmitted(c.zigZagLong(), c.enumValue(IO_OPS), c.zigZagLong(),
                c.zigZagLong(), c.zigZagInt());
            case IO_COMPLETED -> new IoCompleted(c.zigZagLong(), c.enumValue(IO_OPS), c.zigZagLong(), c.zigZagLong());
            case WRITE_FINISHED -> new WriteFinished(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.bool());
            case LOAD_REQUESTED -> new LoadRequested(c.zigZagLong(), ranges(c), c.zigZagLong());
            case LOAD_HIT -> new LoadHit(c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case LOAD_GAP -> new LoadGap(c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case LOAD_WAITS_FOR_WRITE -> new LoadWaitsForWrite(c.zigZagLong(), c.zigZagLong());
            case PROMOTED -> new Promoted(c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case PROMOTION_DISCARDED -> new PromotionDiscarded(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(),
                c.enumValue(DISCARD_REASONS));
            case LOAD_COMPLETED -> new LoadCompleted(c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case LOAD_FAILED -> new LoadFailed(c.zigZagLong(), c.enumValue(LOAD_FAILURES));
            case SAVE_QUEUED -> new SaveQueued(c.zigZagLong(), specs(c), c.zigZagInt(), c.zigZagLong());
            case BATCH_SENT -> new BatchSent(c.zigZagLong(), c.zigZagInt(), c.zigZagLong());
            case BATCH_STAGED -> new BatchStaged(c.zigZagLong(), c.zigZagInt(), c.zigZagInt(), c.zigZagLong());
            case REQUEST_RELEASED -> new RequestReleased(c.zigZagLong());
            case REQUEST_COMMITTED -> new RequestCommitted(c.zigZagLong(), c.zigZagInt(), c.zigZagInt());
            case DRAIN_REQUESTED -> new DrainRequested();
            case DRAINED -> new Drained(c.zigZagLong());
            case PHASE_STARTED -> new PhaseStarted(text(c));
            case REQUEST_ARRIVED -> new RequestArrived(c.zigZagLong(), text(c), c.zigZagInt(), c.zigZagInt());
            case REQUEST_FINISHED -> new RequestFinished(c.zigZagLong(), text(c), c.zigZagLong(), c.bool());
            case CHECKSUM_MISMATCH -> new CoreEvent.ChecksumMismatch(c.zigZagLong(), c.zigZagLong(), c.zigZagLong(),
                c.zigZagInt());
            case INDEX_OPEN_REQUESTED -> new CoreEvent.IndexOpenRequested(c.bool());
            case INDEX_IO_SUBMITTED -> new CoreEvent.IndexIoSubmitted(c.zigZagLong(), c.enumValue(IO_OPS),
                c.zigZagLong(), c.zigZagLong());
            case INDEX_IO_COMPLETED -> new CoreEvent.IndexIoCompleted(c.zigZagLong(), c.enumValue(IO_OPS),
                c.zigZagLong(), c.zigZagLong());
            case INDEX_CHECKPOINTED -> new CoreEvent.IndexCheckpointed(c.zigZagLong(), c.zigZagLong(), c.zigZagInt(),
                c.zigZagLong());
            case INDEX_OPENED -> new CoreEvent.IndexOpened(c.zigZagLong(), c.bool(), c.zigZagInt(), c.zigZagLong(),
                c.zigZagLong());
            case INDEX_FAILED -> new CoreEvent.IndexFailed(c.zigZagLong());
            case COMMIT_PENDING -> new CoreEvent.CommitPending(c.zigZagLong(), c.zigZagInt(), c.zigZagInt());
            case COMMIT_REFUSED -> new CoreEvent.CommitRefused(c.zigZagLong(), key(c), c.zigZagLong());
            case CHUNK_RECOVERED -> new CoreEvent.ChunkRecovered(key(c), c.zigZagInt(), c.zigZagLong(), c.zigZagInt(),
                c.zigZagInt());
            case SHUTDOWN_REQUESTED -> new CoreEvent.ShutdownRequested();
            case SHUTDOWN_COMPLETED -> new CoreEvent.ShutdownCompleted(c.bool());
            case DELIVERED -> new CoreEvent.Delivered(c.zigZagLong(), c.bool());
            case STEP_COMPLETED -> new CoreEvent.StepCompleted(c.zigZagLong(), text(c), c.zigZagInt(), c.zigZagLong(),
                c.zigZagLong(), c.zigZagLong(), c.zigZagLong(), c.zigZagLong());
            case LOAD_WAITED -> new CoreEvent.LoadWaited(c.zigZagLong(), text(c), c.zigZagLong(), c.bool());
            default -> throw new EventFormatException("bad event tag " + tag);
        };
    }

    private static String text(final EventCursor c) throws EventFormatException {
        return c.text(MAX_TEXT_BYTES);
    }

    private static PrefixKey key(final EventCursor c) throws EventFormatException {
        final KeyDictionary keys = c.dictionary();
        if (keys == null) {
            return new PrefixKey(c.longLe(), c.longLe());
        }
        c.beforeKey();
        final PrefixKey key = keys.read(c);
        c.afterKey(key);
        return key;
    }

    private static AllocationRef ref(final EventCursor c) throws EventFormatException {
        return new AllocationRef(key(c), c.zigZagLong(), c.zigZagInt(), c.zigZagInt());
    }

    private static int listCount(final EventCursor c) throws EventFormatException {
        final int count = c.count(MAX_LIST_COUNT);
        if (count > c.remaining()) {
            throw new EventFormatException("list of " + count + " elements in " + c.remaining() + " bytes");
        }
        return count;
    }

    private static List<PrefixKey> keys(final EventCursor c) throws EventFormatException {
        final int count = listCount(c);
        final List<PrefixKey> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(key(c));
        }
        return out;
    }

    private static List<AllocationRef> refs(final EventCursor c) throws EventFormatException {
        final int count = listCount(c);
        final List<AllocationRef> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(ref(c));
        }
        return out;
    }

    private static List<StoreSpec> specs(final EventCursor c) throws EventFormatException {
        final int count = listCount(c);
        final List<StoreSpec> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final AllocationRef alloc = ref(c);
            final int blockCount = listCount(c);
            final List<Integer> blocks = new ArrayList<>(blockCount);
            for (int b = 0; b < blockCount; b++) {
                blocks.add(c.zigZagInt());
            }
            out.add(new StoreSpec(alloc, blocks, c.zigZagLong()));
        }
        return out;
    }

    private static List<SpanPiece> pieces(final EventCursor c) throws EventFormatException {
        final int count = listCount(c);
        final List<SpanPiece> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new SpanPiece(ref(c), c.zigZagLong(), c.zigZagLong(), c.zigZagLong()));
        }
        return out;
    }

    private static List<LoadRange> ranges(final EventCursor c) throws EventFormatException {
        final int count = listCount(c);
        final List<LoadRange> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new LoadRange(ref(c), c.zigZagLong(), c.zigZagLong(), c.zigZagLong()));
        }
        return out;
    }
}
