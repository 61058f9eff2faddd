package dev.kvtier.realio.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct io_uring_params} (120 B), with its two embedded offset tables {@code io_sqring_offsets} and
 * {@code io_cqring_offsets} (40 B each). The caller fills {@code flags}; the kernel fills the rest on setup.
 *
 * <pre>
 *  0 u32 sq_entries     4 u32 cq_entries     8 u32 flags         12 u32 sq_thread_cpu
 * 16 u32 sq_thread_idle 20 u32 features     24 u32 wq_fd         28 u32 resv[3]
 * 40 io_sqring_offsets sq_off (40 B)         80 io_cqring_offsets cq_off (40 B)       120
 *
 * io_sqring_offsets: 0 head  4 tail  8 ring_mask 12 ring_entries 16 flags 20 dropped 24 array 28 resv1 32 u64 user_addr
 * io_cqring_offsets: 0 head  4 tail  8 ring_mask 12 ring_entries 16 overflow 20 cqes 24 flags 28 resv1 32 u64 user_addr
 * </pre>
 */
public final class ParamsDescriptor {
    public static final int SIZE = 120;
    public static final int SQ_ENTRIES = 0;
    public static final int CQ_ENTRIES = 4;
    public static final int FLAGS = 8;
    public static final int FEATURES = 20;
    public static final int SQ_OFF = 40;
    public static final int CQ_OFF = 80;

    /** Offsets inside either offset table. */
    public static final int OFF_HEAD = 0;
    public static final int OFF_TAIL = 4;
    public static final int OFF_RING_MASK = 8;
    public static final int OFF_RING_ENTRIES = 12;
    /** sq_off.flags; in cq_off this position is {@code overflow}. */
    public static final int SQ_OFF_FLAGS = 16;
    public static final int SQ_OFF_DROPPED = 20;
    public static final int SQ_OFF_ARRAY = 24;
    public static final int CQ_OFF_OVERFLOW = 16;
    public static final int CQ_OFF_CQES = 20;
    public static final int CQ_OFF_FLAGS = 24;
    public static final int OFFSETS_SIZE = 40;

    private ParamsDescriptor() {}

    /** The structure as the kernel header declares it. */
    public static StructLayout layout() {
        return MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"), JAVA_INT.withName("cq_entries"), JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"), JAVA_INT.withName("sq_thread_idle"), JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"), MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            offsets("sq", "flags", "dropped", "array").withName("sq_off"),
            offsets("cq", "overflow", "cqes", "flags").withName("cq_off")).withName("io_uring_params");
    }

    private static StructLayout offsets(final String ring, final String f16, final String f20, final String f24) {
        return MemoryLayout.structLayout(JAVA_INT.withName("head"), JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"), JAVA_INT.withName("ring_entries"), JAVA_INT.withName(f16),
            JAVA_INT.withName(f20), JAVA_INT.withName(f24), JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("user_addr")).withName("io_" + ring + "ring_offsets");
    }

    /** Throws when a constant disagrees with the declared layout. */
    public static void check() {
        final StructLayout p = layout();
        LayoutCheck.size(p, SIZE);
        LayoutCheck.offset(p, "sq_entries", SQ_ENTRIES);
        LayoutCheck.offset(p, "cq_entries", CQ_ENTRIES);
        LayoutCheck.offset(p, "flags", FLAGS);
        LayoutCheck.offset(p, "features", FEATURES);
        LayoutCheck.offset(p, "sq_off", SQ_OFF);
        LayoutCheck.offset(p, "cq_off", CQ_OFF);
        final StructLayout sq = offsets("sq", "flags", "dropped", "array");
        final StructLayout cq = offsets("cq", "overflow", "cqes", "flags");
        LayoutCheck.size(sq, OFFSETS_SIZE);
        LayoutCheck.offset(sq, "head", OFF_HEAD);
        LayoutCheck.offset(sq, "tail", OFF_TAIL);
        LayoutCheck.offset(sq, "ring_mask", OFF_RING_MASK);
        LayoutCheck.offset(sq, "ring_entries", OFF_RING_ENTRIES);
        LayoutCheck.offset(sq, "flags", SQ_OFF_FLAGS);
        LayoutCheck.offset(sq, "dropped", SQ_OFF_DROPPED);
        LayoutCheck.offset(sq, "array", SQ_OFF_ARRAY);
        LayoutCheck.offset(cq, "overflow", CQ_OFF_OVERFLOW);
        LayoutCheck.offset(cq, "cqes", CQ_OFF_CQES);
        LayoutCheck.offset(cq, "flags", CQ_OFF_FLAGS);
    }
}
