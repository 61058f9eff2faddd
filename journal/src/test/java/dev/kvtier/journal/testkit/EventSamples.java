package dev.kvtier.journal.testkit;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;

/** One hand-made sample of every {@link CoreEvent} record, with plausible values; tests check the coverage. */
public final class EventSamples {
    /** One mebibyte. */
    public static final long MIB = 1L << 20;

    private EventSamples() {}

    /** A key whose halves are spread from {@code n}. */
    public static PrefixKey key(final long n) {
        return new PrefixKey(n * 0x9E37_79B9_7F4A_7C15L, ~n * 0xC2B2_AE3D_27D4_EB4FL);
    }

    /** An allocation of 2 slots at slot {@code n}. */
    public static AllocationRef ref(final int n) {
        return new AllocationRef(key(n), 500 + n, n, 2);
    }

    /** One sample of each record, in declaration order. */
    public static List<CoreEvent> all() {
        return List.of(
            new CoreEvent.Lookup(3, List.of(key(2), key(3)), 9),
            new CoreEvent.AllocateRequested(1004L, 15, List.of(key(6), key(7)), 21),
            new CoreEvent.Allocated(1008L, key(9), 1010L, 34, 37),
            new CoreEvent.AllocationSkipped(1013L, key(14), CoreEvent.SkipReason.TOO_LARGE),
            new CoreEvent.RingWrapped(49, 52),
            new CoreEvent.RingEvicted(key(18), 1019L, 61, 64, false, 69, CoreEvent.RingEvictReason.WRITE_FAILED),
            new CoreEvent.ClaimReleased(ref(25), false),
            new CoreEvent.CommitRequested(List.of(ref(27), ref(28))),
            new CoreEvent.Committed(key(28), 1029L),
            new CoreEvent.LateCommit(key(30), 1031L),
            new CoreEvent.StoreSent(1032L, List.of(new SpanPiece(ref(33), 0L, 6L * MIB, 2L * MIB))),
            new CoreEvent.StoreReceived(1034L, 106, 36L * MIB),
            new CoreEvent.SpanRejected(1037L, key(38), 1039L, 40L * MIB, 41L * MIB,
                CoreEvent.RejectReason.LARGER_THAN_L1),
            new CoreEvent.SpansCoalesced(1043L, 132, 135),
            new CoreEvent.SliceReserved(1046L, 47L * MIB, 48L * MIB, 49L * MIB),
            new CoreEvent.EntryInserted(1050L, 51L * MIB, 52L * MIB, 53L * MIB, 54L * MIB, true, 168),
            new CoreEvent.EntryEvicted(57L * MIB, 58L * MIB, 59L * MIB, false, true, CoreEvent.L1EvictReason.OVERLAP),
            new CoreEvent.SliceFreed(63L * MIB, 64L * MIB),
            new CoreEvent.MemoryWait(1065L, 66L * MIB),
            new CoreEvent.Trimmed(1067L, 68L * MIB, 1069L, 1070L, 213),
            new CoreEvent.StoreCompleted(1072L, 219, 222, 75L * MIB),
            new CoreEvent.BatchSealed(1076L, 1077L, 78L * MIB, 79L * MIB, 240, 243,
                CoreEvent.SealReason.END_OF_STORE),
            new CoreEvent.IoSubmitted(1083L, IoOp.WRITE, 85L * MIB, 86L * MIB, 261),
            new CoreEvent.IoCompleted(1088L, IoOp.WRITE, 90L * MIB, -5L),
            new CoreEvent.WriteFinished(1092L, 93L * MIB, 94L * MIB, true),
            new CoreEvent.LoadRequested(1096L,
                List.of(new LoadRange(ref(97), 2L * MIB, 4096L, 0L), new LoadRange(ref(98), 9L * MIB, 8192L, 4096L)),
                98L * MIB),
            new CoreEvent.LoadHit(1099L, 100L * MIB, 101L * MIB),
            new CoreEvent.LoadGap(1102L, 103L * MIB, 104L * MIB),
            new CoreEvent.LoadWaitsForWrite(1105L, 1106L),
            new CoreEvent.Promoted(1107L, 108L * MIB, 109L * MIB),
            new CoreEvent.PromotionDiscarded(1110L, 111L * MIB, 112L * MIB, CoreEvent.DiscardReason.LOAD_FAILED),
            new CoreEvent.LoadCompleted(1114L, 115L * MIB, 116L * MIB),
            new CoreEvent.LoadFailed(1117L, CoreEvent.LoadFailure.CLOSED),
            new CoreEvent.SaveQueued(1119L, List.of(new StoreSpec(ref(120), List.of(0, 1), 12L * MIB)), 363,
                122L * MIB),
            new CoreEvent.BatchSent(1123L, 372, 1125L),
            new CoreEvent.BatchStaged(1126L, 381, 384, 129L * MIB),
            new CoreEvent.RequestReleased(1130L),
            new CoreEvent.RequestCommitted(1131L, 396, 399),
            new CoreEvent.DrainRequested(),
            new CoreEvent.Drained(1134L),
            new CoreEvent.PhaseStarted("warm"),
            new CoreEvent.RequestArrived(1136L, "warm", 414, 417),
            new CoreEvent.RequestFinished(1140L, "warm", 1142L, true),
            new CoreEvent.ChecksumMismatch(1150L, 2L << 30, 2359296L, 3),
            new CoreEvent.IndexOpenRequested(true),
            new CoreEvent.IndexIoSubmitted(1151L, IoOp.WRITE, 8192L, 4096L),
            new CoreEvent.IndexIoCompleted(1151L, IoOp.FLUSH, 0L, -28L),
            new CoreEvent.IndexCheckpointed(3L, 1152L, 4551, 204_800L),
            new CoreEvent.IndexOpened(3L, true, 4551, 12_345L, 9_437_184L),
            new CoreEvent.IndexFailed(-28L),
            new CoreEvent.CommitPending(1153L, 512, 2),
            new CoreEvent.CommitRefused(1153L, new PrefixKey(0x1234_5678_9abc_def0L, -7L), 1154L),
            new CoreEvent.ChunkRecovered(new PrefixKey(-1L, 42L), 7, 1155L, 4550, 1),
            new CoreEvent.ShutdownRequested(),
            new CoreEvent.ShutdownCompleted(true),
            new CoreEvent.Delivered(1L << 50, true),
            new CoreEvent.StepCompleted(7, "cold", 2, 8192, 120_000, 327_680_000, 48_000_000, 376_000_000),
            new CoreEvent.LoadWaited(9, "warm", 165_000_000, false));
    }
}
