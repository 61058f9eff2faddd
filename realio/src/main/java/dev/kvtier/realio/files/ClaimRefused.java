package dev.kvtier.realio.files;

/**
 * A path kvtier will not write (one line: the path, what it holds or who holds it, and how to go on). Nothing was
 * written to the path when it is thrown, and a file the claim created is gone.
 */
public final class ClaimRefused extends Exception {
    private static final long serialVersionUID = 1L;

    public ClaimRefused(final String message) {
        super(oneLine(message), null, false, false);
    }

    private static String oneLine(final String message) {
        if (message.isBlank()) {
            throw new IllegalArgumentException("a refusal needs a message");
        }
        return message.replace('\n', ' ').replace('\r', ' ');
    }
}
