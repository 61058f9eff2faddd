package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.function.BooleanSupplier;

/**
 * Invariant 15's guard on the index log's epochs, across the run's lives (docs/design/FAULTS-AND-CRASH-SAFETY.md,
 * opening): whether it formats or recovers, the index goes on with an epoch above every epoch on the device, so no
 * record of an earlier incarnation left in the log area can pass for a new one after a later crash. The model: the
 * highest epoch of a checkpoint made durable ({@code IndexCheckpointed}) in any life so far; each {@code IndexOpened}
 * must be above it. A durable checkpoint stays on the device (a checkpoint is written to the area not holding the
 * newest), so its epoch is one recovery must see. Not judged once the index device was told to flip bytes on its media:
 * a flipped newest checkpoint hides its epoch (outside the claim, as its lost commits are).
 */
public final class EpochChecker implements Checker {
    private final BooleanSupplier indexFlipped;
    private long highestDurable = -1;

    /** @param indexFlipped whether the index device flipped a byte of a completed write so far */
    public EpochChecker(final BooleanSupplier indexFlipped) {
        this.indexFlipped = indexFlipped;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.IndexCheckpointed e -> highestDurable = Math.max(highestDurable, e.epoch());
            case CoreEvent.IndexOpened e -> {
                if (highestDurable >= 0 && e.epoch() <= highestDurable && !indexFlipped.getAsBoolean()) {
                    ctx.fail(Invariant.CRASH, "the index opened with epoch " + e.epoch() + " (recovered: "
                        + e.recoveredFromDisk() + "), not above epoch " + highestDurable + " of a durable checkpoint"
                        + " of an earlier life: a record that life left past the replayed ones could be replayed"
                        + " after a later crash");
                }
            }
            default -> {
                // nothing this checker models
            }
        }
    }
}
