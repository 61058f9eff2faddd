package dev.kvtier.realio.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct io_uring_sqe}, one submission queue entry (64 B; realio does not set up SQE128). Only the fields
 * realio writes are named; unions are named by the member realio uses.
 *
 * <pre>
 *  0 u8 opcode   1 u8 flags   2 u16 ioprio   4 s32 fd
 *  8 u64 off                                  (file offset)
 * 16 u64 addr                                 (buffer, or iovec array for READV/WRITEV)
 * 24 u32 len                                  (bytes, or iovec count)
 * 28 u32 rw_flags                             (fsync_flags for FSYNC)
 * 32 u64 user_data
 * 40 u16 buf_index  42 u16 personality  44 s32 file_index
 * 48 u64 addr3      56 u64 pad2                                                     64
 * </pre>
 */
public final class SqeDescriptor {
    public static final int SIZE = 64;
    public static final int OPCODE = 0;
    public static final int FLAGS = 1;
    public static final int IOPRIO = 2;
    public static final int FD = 4;
    public static final int OFF = 8;
    public static final int ADDR = 16;
    public static final int LEN = 24;
    public static final int RW_FLAGS = 28;
    public static final int USER_DATA = 32;
    public static final int BUF_INDEX = 40;
    public static final int PERSONALITY = 42;
    public static final int FILE_INDEX = 44;
    public static final int ADDR3 = 48;
    public static final int PAD2 = 56;

    private SqeDescriptor() {}

    /** The structure as the kernel header declares it. */
    public static StructLayout layout() {
        return MemoryLayout.structLayout(JAVA_BYTE.withName("opcode"), JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("ioprio"), JAVA_INT.withName("fd"), JAVA_LONG.withName("off"),
            JAVA_LONG.withName("addr"), JAVA_INT.withName("len"), JAVA_INT.withName("rw_flags"),
            JAVA_LONG.withName("user_data"), JAVA_SHORT.withName("buf_index"), JAVA_SHORT.withName("personality"),
            JAVA_INT.withName("file_index"), JAVA_LONG.withName("addr3"), JAVA_LONG.withName("pad2"))
            .withName("io_uring_sqe");
    }

    /** Throws when a constant disagrees with the declared layout. */
    public static void check() {
        final StructLayout s = layout();
        LayoutCheck.size(s, SIZE);
        LayoutCheck.offset(s, "opcode", OPCODE);
        LayoutCheck.offset(s, "flags", FLAGS);
        LayoutCheck.offset(s, "ioprio", IOPRIO);
        LayoutCheck.offset(s, "fd", FD);
        LayoutCheck.offset(s, "off", OFF);
        LayoutCheck.offset(s, "addr", ADDR);
        LayoutCheck.offset(s, "len", LEN);
        LayoutCheck.offset(s, "rw_flags", RW_FLAGS);
        LayoutCheck.offset(s, "user_data", USER_DATA);
        LayoutCheck.offset(s, "buf_index", BUF_INDEX);
        LayoutCheck.offset(s, "personality", PERSONALITY);
        LayoutCheck.offset(s, "file_index", FILE_INDEX);
        LayoutCheck.offset(s, "addr3", ADDR3);
        LayoutCheck.offset(s, "pad2", PAD2);
    }
}
