package dev.kvtier.realio.ffi;

/**
 * Linux errno values (x86-64 and arm64 share them) that realio names in messages. A result below zero from a
 * {@link Kernel} call is {@code -errno}; {@link #name} turns it into the symbolic name so every message says
 * {@code EPERM} rather than {@code -1}.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    /** {@code EWOULDBLOCK} is {@code EAGAIN} on Linux (a non-blocking flock that would wait). */
    public static final int EWOULDBLOCK = EAGAIN;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENOTDIR = 20;
    public static final int EMFILE = 24;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int EROFS = 30;
    public static final int ENOSYS = 38;
    public static final int ETIME = 62;
    public static final int EOVERFLOW = 75;
    public static final int EOPNOTSUPP = 95;
    public static final int ECANCELED = 125;

    private static final String[] NAMES = new String[126];

    static {
        NAMES[EPERM] = "EPERM";
        NAMES[ENOENT] = "ENOENT";
        NAMES[EINTR] = "EINTR";
        NAMES[EIO] = "EIO";
        NAMES[ENXIO] = "ENXIO";
        NAMES[EBADF] = "EBADF";
        NAMES[EAGAIN] = "EAGAIN";
        NAMES[ENOMEM] = "ENOMEM";
        NAMES[EACCES] = "EACCES";
        NAMES[EFAULT] = "EFAULT";
        NAMES[EBUSY] = "EBUSY";
        NAMES[EEXIST] = "EEXIST";
        NAMES[ENODEV] = "ENODEV";
        NAMES[EISDIR] = "EISDIR";
        NAMES[EINVAL] = "EINVAL";
        NAMES[ENOTDIR] = "ENOTDIR";
        NAMES[EMFILE] = "EMFILE";
        NAMES[EFBIG] = "EFBIG";
        NAMES[ENOSPC] = "ENOSPC";
        NAMES[EROFS] = "EROFS";
        NAMES[ENOSYS] = "ENOSYS";
        NAMES[ETIME] = "ETIME";
        NAMES[EOVERFLOW] = "EOVERFLOW";
        NAMES[EOPNOTSUPP] = "EOPNOTSUPP";
        NAMES[ECANCELED] = "ECANCELED";
    }

    private Errno() {}

    /** The symbolic name of {@code errno} (positive), or {@code errno <n>} for one this class does not name. */
    public static String name(final int errno) {
        if (errno <= 0) {
            throw new IllegalArgumentException("errno must be positive, got " + errno);
        }
        if (errno < NAMES.length && NAMES[errno] != null) {
            return NAMES[errno];
        }
        return "errno " + errno;
    }

    /** The name of the error in a negative result ({@code -errno}), for messages. */
    public static String ofResult(final long result) {
        if (result >= 0) {
            throw new IllegalArgumentException("not an error result: " + result);
        }
        return name((int) -result);
    }
}
