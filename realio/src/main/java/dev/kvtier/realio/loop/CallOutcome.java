package dev.kvtier.realio.loop;

import java.util.function.Consumer;

/**
 * The outcome of one asynchronous call into the core (open, shutdown) that a caller waits for on the wall-clock loop:
 * {@code loop.runFor(outcome::done, timeoutNs)}. The core completes it once, with null or an error.
 */
public final class CallOutcome implements Consumer<String> {
    private boolean done;
    private String error;

    @Override
    public void accept(final String result) {
        if (done) {
            throw new IllegalStateException("completed twice: " + error + ", then " + result);
        }
        error = result;
        done = true;
    }

    /** Whether the call completed. */
    public boolean done() {
        return done;
    }

    /** Null when the call succeeded (or has not completed), else what failed. */
    public String error() {
        return error;
    }
}
