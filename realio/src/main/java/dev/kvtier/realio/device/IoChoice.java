package dev.kvtier.realio.device;

/** Which device implementation {@link Devices#open} uses. */
public enum IoChoice {
    /** io_uring, or the FileChannel device with a one-line notice when io_uring is unavailable. */
    AUTO,
    /** io_uring only; unavailable is an error. */
    URING,
    /** The FileChannel fallback, even where io_uring works. */
    FILECHANNEL
}
