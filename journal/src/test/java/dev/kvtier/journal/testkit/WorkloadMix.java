package dev.kvtier.journal.testkit;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A plausible event stream for benchmarks and trace tests: each request arrives, looks up, allocates, saves (stage,
 * send, store, write I/O, commit), loads (hit, gap, read I/O, promotion) and finishes, with evictions now and then.
 * About 45 events per request; the clock advances a few microseconds between events.
 */
public final class WorkloadMix {
    private static final long SLOT_BYTES = 2_359_296L;
    private static final int KEYS = 4;

    private final SplittableRandom random;
    private final ManualClock clock;
    private long nextIo;
    private long nextAllocation;

    /** A mix seeded with {@code seed}, whose times come from {@code clock}. */
    public WorkloadMix(final long seed, final ManualClock clock) {
        this.random = new SplittableRandom(seed);
        this.clock = clock;
    }

    /** Emits the events of request {@code r} to {@code sink}; returns how many. */
    public int request(final long r, final EventSink sink) {
        final List<CoreEvent> out = new ArrayList<>(64);
        final List<PrefixKey> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < KEYS; i++) {
            keys.add(new PrefixKey(random.nextLong(), random.nextLong()));
        }
        out.add(new CoreEvent.RequestArrived(r, r % 2 == 0 ? "cold" : "warm", KEYS, random.nextInt(KEYS)));
        out.add(new CoreEvent.Lookup(1, keys, random.nextInt(KEYS)));
        out.add(new CoreEvent.AllocateRequested(r, 1, keys, 1));
        final List<AllocationRef> refs = new ArrayList<>(KEYS);
        for (final PrefixKey key : keys) {
            final int slot = (int) (nextAllocation % 4000);
            final AllocationRef ref = new AllocationRef(key, nextAllocation++, slot, 1);
            refs.add(ref);
            out.add(new CoreEvent.Allocated(r, key, ref.allocationId(), slot, 1));
        }
        save(r, refs, out);
        load(r, refs, out);
        if (random.nextInt(4) == 0) {
            out.add(new CoreEvent.RingEvicted(keys.get(0), nextAllocation - 4000, 7, 1, true, 0,
                CoreEvent.RingEvictReason.SPACE));
        }
        out.add(new CoreEvent.RequestFinished(r, r % 2 == 0 ? "cold" : "warm", 1_000 + random.nextInt(50_000), true));
        for (final CoreEvent event : out) {
            clock.advance(1 + random.nextInt(5_000));
            sink.emit(event);
        }
        return out.size();
    }

    private void save(final long r, final List<AllocationRef> refs, final List<CoreEvent> out) {
        final long bytes = KEYS * SLOT_BYTES;
        final List<StoreSpec> specs = new ArrayList<>();
        final List<SpanPiece> pieces = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            specs.add(StoreSpec.of(refs.get(i), List.of(i), SLOT_BYTES));
            pieces.add(new SpanPiece(refs.get(i), i * SLOT_BYTES, refs.get(i).fileOffset(SLOT_BYTES), SLOT_BYTES));
        }
        out.add(new CoreEvent.SaveQueued(r, specs, 1, bytes));
        out.add(new CoreEvent.BatchStaged(r, 0, KEYS, 0));
        out.add(new CoreEvent.RequestReleased(r));
        out.add(new CoreEvent.BatchSent(r, 0, r));
        out.add(new CoreEvent.StoreSent(r, pieces));
        out.add(new CoreEvent.StoreReceived(r, KEYS, bytes));
        out.add(new CoreEvent.SpansCoalesced(r, KEYS, 1));
        final long file = refs.get(0).fileOffset(SLOT_BYTES);
        final long pool = random.nextLong(1L << 30) & ~4095L;
        out.add(new CoreEvent.SliceReserved(r, file, bytes, pool));
        for (int i = 0; i < KEYS; i++) {
            out.add(new CoreEvent.EntryInserted(r, file + i * SLOT_BYTES, SLOT_BYTES, pool + i * SLOT_BYTES,
                i * SLOT_BYTES, false, i));
        }
        out.add(new CoreEvent.BatchSealed(r, r, file, bytes, KEYS, 0, CoreEvent.SealReason.END_OF_STORE));
        final long io = nextIo++;
        out.add(new CoreEvent.IoSubmitted(io, IoOp.WRITE, file, bytes, 1));
        out.add(new CoreEvent.StoreCompleted(r, KEYS, 0, bytes));
        if (random.nextInt(3) == 0) {
            out.add(new CoreEvent.Trimmed(r, 800L << 20, 900L << 20, 790L << 20, 2));
            out.add(new CoreEvent.EntryEvicted(file, SLOT_BYTES, pool, false, false, CoreEvent.L1EvictReason.TRIM));
            out.add(new CoreEvent.SliceFreed(pool, SLOT_BYTES));
        }
        out.add(new CoreEvent.IoCompleted(io, IoOp.WRITE, file, bytes));
        out.add(new CoreEvent.WriteFinished(r, file, bytes, true));
        out.add(new CoreEvent.CommitRequested(refs));
        for (final AllocationRef ref : refs) {
            out.add(new CoreEvent.Committed(ref.key(), ref.allocationId()));
        }
        out.add(new CoreEvent.RequestCommitted(r, KEYS, 0));
    }

    private void load(final long r, final List<AllocationRef> refs, final List<CoreEvent> out) {
        final List<LoadRange> ranges = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ranges.add(LoadRange.whole(refs.get(i), SLOT_BYTES, i * SLOT_BYTES));
        }
        final long file = refs.get(1).fileOffset(SLOT_BYTES);
        out.add(new CoreEvent.LoadRequested(r, ranges, 2 * SLOT_BYTES));
        out.add(new CoreEvent.LoadHit(r, refs.get(0).fileOffset(SLOT_BYTES), SLOT_BYTES));
        out.add(new CoreEvent.LoadGap(r, file, SLOT_BYTES));
        final long io = nextIo++;
        out.add(new CoreEvent.IoSubmitted(io, IoOp.READ, file, SLOT_BYTES, 1));
        out.add(new CoreEvent.IoCompleted(io, IoOp.READ, file, SLOT_BYTES));
        out.add(new CoreEvent.Promoted(r, file, SLOT_BYTES));
        out.add(new CoreEvent.LoadCompleted(r, 2 * SLOT_BYTES, SLOT_BYTES));
    }
}
