package dev.kvtier.scenarios;

/**
 * A scenario that cannot be used: the message is one line naming the source (file or library name), the key and
 * the problem. The CLI prints it and exits 2.
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    public ScenarioException(final String message) {
        super(message);
    }
}
