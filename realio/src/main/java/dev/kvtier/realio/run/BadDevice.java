package dev.kvtier.realio.run;

/**
 * A device of a real run cannot be used (one line: path, call, errno, or what the index device holds). Nothing has
 * run when it is thrown; the CLI prints it and exits 2.
 */
public final class BadDevice extends Exception {
    private static final long serialVersionUID = 1L;

    public BadDevice(final String message) {
        super(message);
    }
}
