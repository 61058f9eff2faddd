package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;

/**
 * Invariant 15's guard on what a recovery replays, across the run's lives: after each crash the runner reads the
 * index device again (the simulator's {@code RecoveryScan}) before the new core opens it, and the open must replay
 * exactly the records the scan says (the consecutive intact records of the checkpoint's epoch after the newest intact
 * checkpoint, and none past a hole), or format when no checkpoint is intact. A recovery that replayed a record past a
 * hole, or one of an earlier lap, would rebuild an index that is not a prefix of the log.
 */
public final class RecoveryChecker implements Checker {
    /** What the next open must replay: records (-1: it formats), and whether a later record sits past them. */
    private record Expected(long records, boolean laterAtEnd) {}

    private Expected expected;

    /**
     * The device was read after a crash: the next open must replay {@code records} log records after its checkpoint
     * (-1: no checkpoint is intact, so it formats); {@code laterAtEnd} says a record of a later lap sits past them.
     */
    public void expect(final long records, final boolean laterAtEnd) {
        this.expected = new Expected(records, laterAtEnd);
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (expected == null || !(event instanceof CoreEvent.IndexOpened e)) {
            return;
        }
        final Expected want = expected;
        expected = null;
        final boolean formats = want.records() < 0;
        if (formats ? e.recoveredFromDisk() : !(e.recoveredFromDisk() && e.records() == want.records())) {
            ctx.fail(Invariant.CRASH, "the index opened " + (e.recoveredFromDisk() ? "replaying " + e.records()
                + " log records" : "empty") + ", but the device holds " + (formats ? "no intact checkpoint"
                    : "an intact checkpoint followed by " + want.records() + " records in sequence")
                + (want.laterAtEnd() ? " and then a record of a later sequence number" : "")
                + ": a recovery replays exactly the log's intact prefix");
        }
    }
}
