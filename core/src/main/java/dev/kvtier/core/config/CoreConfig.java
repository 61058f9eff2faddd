package dev.kvtier.core.config;

import dev.kvtier.core.geometry.Alignment;

/**
 * Every knob of the storage core, validated together (in the compact constructor, which names the bad value).
 * Build one with {@link #builder(long)}, which holds the only copy of the defaults: the reference's
 * (docs/design/STORAGE-CORE.md section 8) unless noted; change one with {@link #toBuilder()}. The canonical constructor
 * takes fifteen positional values, several of them adjacent sizes of the same type, so code outside this class should
 * name them through the builder.
 *
 * @param slotBytes              bytes of one slot (from the model geometry); a multiple of 4096
 * @param l2Bytes                L2 file size; the ring has {@code floor(l2Bytes / slotBytes)} slots
 * @param l1Bytes                L1 budget for resident entries; the pool is {@code align4096(l1Bytes)}
 * @param headroomRatio          H = min(l1, align4096(max(4096, ceil(l1 / ratio)))); reference 20
 * @param groupedWriteBatchBytes a grouped L2 write batch is sealed before it exceeds max(span, this); ref 64 MiB
 * @param coalesceStoreSpans     merge spans adjacent in source and file at the server boundary; ref true
 * @param concurrentIos          L2 I/Os in flight at once; ref 8
 * @param readBatchMax           reads in one load read batch; ref 8
 * @param maxReadBytes           one load read is at most this long (our choice: the write batch size)
 * @param stagingBatchBytes      one client staging batch holds floor(this / slotBytes) slots
 * @param stagingPoolBytes       client staging memory; a save waits when it is full (our choice: 2 batches)
 * @param replacement            L1 replacement policy
 * @param commitMode             when a commit becomes visible
 * @param l2Admission            which keys get L2 slots (and so are stored at all); ref: all
 * @param stagingLayout          where the client puts a batch's pieces in staging; ref: packed in the order sent
 */
public record CoreConfig(long slotBytes, long l2Bytes, long l1Bytes, int headroomRatio, long groupedWriteBatchBytes,
                         boolean coalesceStoreSpans, int concurrentIos, int readBatchMax, long maxReadBytes,
                         long stagingBatchBytes, long stagingPoolBytes, ReplacementKind replacement,
                         CommitMode commitMode, L2Admission l2Admission, StagingLayout stagingLayout) {

    /** 64 MiB. */
    private static final long MIB_64 = 64L << 20;

    public CoreConfig {
        Alignment.requireAligned("slotBytes", slotBytes);
        positive("slotBytes", slotBytes);
        if (l2Bytes < slotBytes) {
            throw new IllegalArgumentException("l2Bytes (" + l2Bytes + ") must hold at least one slot of "
                + slotBytes + " B");
        }
        if (l2Bytes / slotBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("l2Bytes gives more than 2^31-1 slots: " + l2Bytes);
        }
        positive("l1Bytes", l1Bytes);
        positive("headroomRatio", headroomRatio);
        Alignment.requireAligned("groupedWriteBatchBytes", groupedWriteBatchBytes);
        positive("groupedWriteBatchBytes", groupedWriteBatchBytes);
        positive("concurrentIos", concurrentIos);
        positive("readBatchMax", readBatchMax);
        Alignment.requireAligned("maxReadBytes", maxReadBytes);
        positive("maxReadBytes", maxReadBytes);
        if (stagingBatchBytes < slotBytes) {
            throw new IllegalArgumentException("stagingBatchBytes (" + stagingBatchBytes
                + ") must hold at least one slot of " + slotBytes + " B");
        }
        if (stagingPoolBytes < stagingBatchBytes) {
            throw new IllegalArgumentException("stagingPoolBytes (" + stagingPoolBytes
                + ") must hold at least one staging batch of " + stagingBatchBytes + " B");
        }
        if (replacement == null) {
            throw new IllegalArgumentException("replacement must be set, got null");
        }
        if (commitMode == null) {
            throw new IllegalArgumentException("commitMode must be set, got null");
        }
        if (l2Admission == null) {
            throw new IllegalArgumentException("l2Admission must be set, got null");
        }
        if (stagingLayout == null) {
            throw new IllegalArgumentException("stagingLayout must be set, got null");
        }
    }

    /** Every knob at its default for a slot size: {@code builder(slotBytes).build()}. */
    public static CoreConfig defaults(final long slotBytes) {
        return builder(slotBytes).build();
    }

    /** A builder for slots of {@code slotBytes}, every other knob at its default until set. */
    public static Builder builder(final long slotBytes) {
        return new Builder(slotBytes);
    }

    /** A builder holding every knob of this configuration, to change some and build another. */
    public Builder toBuilder() {
        return new Builder(slotBytes).l2Bytes(l2Bytes).l1Bytes(l1Bytes).headroomRatio(headroomRatio)
            .groupedWriteBatchBytes(groupedWriteBatchBytes).coalesceStoreSpans(coalesceStoreSpans)
            .concurrentIos(concurrentIos).readBatchMax(readBatchMax).maxReadBytes(maxReadBytes)
            .stagingBatchBytes(stagingBatchBytes).stagingPoolBytes(stagingPoolBytes).replacement(replacement)
            .commitMode(commitMode).l2Admission(l2Admission).stagingLayout(stagingLayout);
    }

    /** Slots in the L2 ring. */
    public int l2Slots() {
        return Math.toIntExact(l2Bytes / slotBytes);
    }

    /** Slots per client staging batch. */
    public int stagingBatchSlots() {
        return Math.toIntExact(stagingBatchBytes / slotBytes);
    }

    /** Bytes of the L1 pool: align4096(l1Bytes). */
    public long l1PoolBytes() {
        return Alignment.up(l1Bytes);
    }

    /**
     * Builds a {@link CoreConfig} with named setters. It holds the only copy of the defaults: a knob not set keeps
     * its default, and the defaults that follow from other knobs ({@code l2Bytes} from the slot size,
     * {@code l1Bytes} from {@code l2Bytes}, {@code stagingBatchBytes} from the slot size, {@code stagingPoolBytes}
     * from {@code stagingBatchBytes}) are taken from their values when asked for or built. The getters answer what
     * {@link #build()} would use. Setters do not check; {@link #build()} validates (in the record's constructor).
     */
    public static final class Builder {
        /** 10 GiB (reference), rounded down to whole slots. */
        private static final long L2_BYTES = 10L << 30;
        /** L1 = min(1 GiB, l2Bytes) (reference). */
        private static final long L1_BYTES_MAX = 1L << 30;
        /** About 5 % headroom (reference). */
        private static final int HEADROOM_RATIO = 20;
        private static final boolean COALESCE_STORE_SPANS = true;
        /** The reference's 8 rings of depth 1. */
        private static final int CONCURRENT_IOS = 8;
        private static final int READ_BATCH_MAX = 8;
        /** The staging pool holds this many staging batches (our choice). */
        private static final int STAGING_POOL_BATCHES = 2;

        private final long slotBytes;
        /** Null until set: the defaults that follow from other knobs are taken when asked for. */
        private Long l2Bytes;
        private Long l1Bytes;
        private int headroomRatio = HEADROOM_RATIO;
        private long groupedWriteBatchBytes = MIB_64;
        private boolean coalesceStoreSpans = COALESCE_STORE_SPANS;
        private int concurrentIos = CONCURRENT_IOS;
        private int readBatchMax = READ_BATCH_MAX;
        private long maxReadBytes = MIB_64;
        private Long stagingBatchBytes;
        private Long stagingPoolBytes;
        private ReplacementKind replacement = ReplacementKind.LRU;
        private CommitMode commitMode = CommitMode.L1;
        private L2Admission l2Admission = L2Admission.ALL;
        private StagingLayout stagingLayout = StagingLayout.PACKED;

        private Builder(final long slotBytes) {
            this.slotBytes = slotBytes;
        }

        /** Validates every knob together and builds the configuration. */
        public CoreConfig build() {
            return new CoreConfig(slotBytes, l2Bytes(), l1Bytes(), headroomRatio, groupedWriteBatchBytes,
                coalesceStoreSpans, concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes(),
                stagingPoolBytes(), replacement, commitMode, l2Admission, stagingLayout);
        }

        /** The slot size this builder was made for. */
        public long slotBytes() {
            return slotBytes;
        }

        /** L2 file size; default 10 GiB rounded down to whole slots. */
        public Builder l2Bytes(final long bytes) {
            this.l2Bytes = bytes;
            return this;
        }

        public long l2Bytes() {
            return l2Bytes != null ? l2Bytes : wholeSlots(L2_BYTES);
        }

        /** L1 budget for resident entries; default min(1 GiB, l2Bytes). */
        public Builder l1Bytes(final long bytes) {
            this.l1Bytes = bytes;
            return this;
        }

        public long l1Bytes() {
            return l1Bytes != null ? l1Bytes : Math.min(L1_BYTES_MAX, l2Bytes());
        }

        /** H = min(l1, align4096(max(4096, ceil(l1 / ratio)))); default 20. */
        public Builder headroomRatio(final int ratio) {
            this.headroomRatio = ratio;
            return this;
        }

        public int headroomRatio() {
            return headroomRatio;
        }

        /** A grouped write batch is sealed before it exceeds max(span, this); default 64 MiB. */
        public Builder groupedWriteBatchBytes(final long bytes) {
            this.groupedWriteBatchBytes = bytes;
            return this;
        }

        public long groupedWriteBatchBytes() {
            return groupedWriteBatchBytes;
        }

        /** Merge spans adjacent in source and file at the server boundary; default true. */
        public Builder coalesceStoreSpans(final boolean on) {
            this.coalesceStoreSpans = on;
            return this;
        }

        public boolean coalesceStoreSpans() {
            return coalesceStoreSpans;
        }

        /** L2 I/Os in flight at once; default 8. */
        public Builder concurrentIos(final int ios) {
            this.concurrentIos = ios;
            return this;
        }

        public int concurrentIos() {
            return concurrentIos;
        }

        /** Reads in one load read batch; default 8. */
        public Builder readBatchMax(final int reads) {
            this.readBatchMax = reads;
            return this;
        }

        public int readBatchMax() {
            return readBatchMax;
        }

        /** One load read is at most this long; default 64 MiB. */
        public Builder maxReadBytes(final long bytes) {
            this.maxReadBytes = bytes;
            return this;
        }

        public long maxReadBytes() {
            return maxReadBytes;
        }

        /** One client staging batch; default 64 MiB rounded down to whole slots, at least one slot. */
        public Builder stagingBatchBytes(final long bytes) {
            this.stagingBatchBytes = bytes;
            return this;
        }

        public long stagingBatchBytes() {
            return stagingBatchBytes != null ? stagingBatchBytes : Math.max(wholeSlots(MIB_64), slotBytes);
        }

        /** Client staging memory; default two staging batches. */
        public Builder stagingPoolBytes(final long bytes) {
            this.stagingPoolBytes = bytes;
            return this;
        }

        public long stagingPoolBytes() {
            return stagingPoolBytes != null ? stagingPoolBytes : STAGING_POOL_BATCHES * stagingBatchBytes();
        }

        /** L1 replacement policy; default {@link ReplacementKind#LRU}. */
        public Builder replacement(final ReplacementKind kind) {
            this.replacement = kind;
            return this;
        }

        public ReplacementKind replacement() {
            return replacement;
        }

        /** Which keys get L2 slots; default {@link L2Admission#ALL}. */
        public Builder l2Admission(final L2Admission admission) {
            this.l2Admission = admission;
            return this;
        }

        public L2Admission l2Admission() {
            return l2Admission;
        }

        /** Where the client puts a batch's pieces in staging; default {@link StagingLayout#PACKED}. */
        public Builder stagingLayout(final StagingLayout layout) {
            this.stagingLayout = layout;
            return this;
        }

        public StagingLayout stagingLayout() {
            return stagingLayout;
        }

        /** When a commit becomes visible; default {@link CommitMode#L1}. */
        public Builder commitMode(final CommitMode mode) {
            this.commitMode = mode;
            return this;
        }

        public CommitMode commitMode() {
            return commitMode;
        }

        /** {@code bytes} rounded down to whole slots (unchanged for a slot size the constructor will reject). */
        private long wholeSlots(final long bytes) {
            return slotBytes > 0 ? bytes / slotBytes * slotBytes : bytes;
        }
    }

    private static void positive(final String what, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
