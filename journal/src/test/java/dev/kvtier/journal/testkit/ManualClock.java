package dev.kvtier.journal.testkit;

import dev.kvtier.core.port.Clock;

/** A clock the test moves by hand. */
public final class ManualClock implements Clock {
    private long nowNs;

    @Override
    public long nowNs() {
        return nowNs;
    }

    /** Moves time forward by {@code deltaNs} (or back, to test that a writer refuses it). */
    public void advance(final long deltaNs) {
        nowNs += deltaNs;
    }
}
