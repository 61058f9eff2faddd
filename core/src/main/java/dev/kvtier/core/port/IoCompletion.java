package dev.kvtier.core.port;

/**
 * The device's answer to one {@link IoRequest}: {@code result} is the number of bytes moved (0 for a FLUSH) or a
 * negative errno. A short transfer (fewer bytes than asked) is an error to the core, as for O_DIRECT it is.
 */
public record IoCompletion(long ioId, long result) {
    /** Linux errno for an I/O error. */
    public static final long EIO = 5;

    /** True when the result is an error code. */
    public boolean failed() {
        return result < 0;
    }
}
