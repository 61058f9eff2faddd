package dev.kvtier.realio.uring;

/** Constants of the io_uring ABI ({@code include/uapi/linux/io_uring.h}) that realio uses. */
public final class UringConstants {
    // Opcodes (enum io_uring_op).
    public static final byte OP_READV = 1;
    public static final byte OP_WRITEV = 2;
    public static final byte OP_FSYNC = 3;
    public static final byte OP_READ_FIXED = 4;
    public static final byte OP_WRITE_FIXED = 5;
    public static final byte OP_READ = 22;
    public static final byte OP_WRITE = 23;

    // io_uring_params.flags (IORING_SETUP_*).
    public static final int SETUP_CLAMP = 1 << 4;
    public static final int SETUP_SUBMIT_ALL = 1 << 7;
    public static final int SETUP_COOP_TASKRUN = 1 << 8;
    public static final int SETUP_SINGLE_ISSUER = 1 << 12;
    public static final int SETUP_DEFER_TASKRUN = 1 << 13;

    // io_uring_params.features (IORING_FEAT_*).
    public static final int FEAT_SINGLE_MMAP = 1;
    public static final int FEAT_NODROP = 1 << 1;
    public static final int FEAT_SUBMIT_STABLE = 1 << 2;
    public static final int FEAT_EXT_ARG = 1 << 8;

    // io_uring_enter flags (IORING_ENTER_*).
    public static final int ENTER_GETEVENTS = 1;
    public static final int ENTER_EXT_ARG = 1 << 3;

    // io_uring_register opcodes.
    public static final int REGISTER_BUFFERS = 0;
    public static final int UNREGISTER_BUFFERS = 1;
    public static final int REGISTER_FILES = 2;
    public static final int UNREGISTER_FILES = 3;

    // sqe.flags (IOSQE_*).
    public static final byte SQE_FIXED_FILE = 1;
    /** IOSQE_ASYNC: hand the request to the kernel's async workers instead of trying it in the submitting call. */
    public static final byte SQE_ASYNC = 1 << 4;

    // sqe.fsync_flags.
    public static final int FSYNC_DATASYNC = 1;

    // sq ring flags.
    public static final int SQ_CQ_OVERFLOW = 1 << 1;
    public static final int SQ_TASKRUN = 1 << 2;

    // mmap offsets of the three regions.
    public static final long OFF_SQ_RING = 0L;
    public static final long OFF_CQ_RING = 0x8000000L;
    public static final long OFF_SQES = 0x10000000L;

    // mmap and open flags (Linux, x86-64 and arm64).
    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;
    public static final int MAP_SHARED = 1;
    public static final int MAP_POPULATE = 0x8000;
    public static final int O_RDONLY = 0;
    public static final int O_RDWR = 2;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_DIRECT = 040000;
    public static final int O_CLOEXEC = 02000000;

    // flock operations.
    public static final int LOCK_EX = 2;
    public static final int LOCK_NB = 4;

    /** The largest buffer one fixed-buffer registration entry may cover (the kernel's limit). */
    public static final long FIXED_BUFFER_BYTES_MAX = 1L << 30;

    /** The most iovecs one READV/WRITEV may carry (UIO_MAXIOV). */
    public static final int IOV_MAX = 1024;

    private UringConstants() {}
}
