package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;

/**
 * Invariant 15's guard on what a recovery replays, across the run's lives: after each crash the runner reads the
 * index device again ({@link RecoveryScan}) before the new core opens it, and the open must replay exactly the records
 * the scan says (the consecutive intact records of the checkpoint's epoch after the newest intact checkpoint, and none
 * past a hole), or format when no checkpoint is intact. A recovery that replayed a record past a hole, or one of an
 * earlier lap, would rebuild an index that is not a prefix of the log.
 */
public final class RecoveryChecker implements Checker {
    private RecoveryScan expected;

    /** The device was read after a crash: the next open must replay what {@code scan} says. */
    public void expect(final RecoveryScan scan) {
        this.expected = scan;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (expected == null || !(event instanceof CoreEvent.IndexOpened e)) {
            return;
        }
        final RecoveryScan want = expected;
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
