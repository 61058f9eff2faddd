package dev.kvtier.sim.device;

/**
 * What a crash does to each page of the index device that was not durable (in flight, or completed and not yet
 * flushed). Every choice changes only bytes that were not durable, so each stays within the index's crash claim.
 */
public enum IndexCrashPages {
    /** Written, lost or torn (per 512 B sector), one third each: as for the data device. */
    DRAW,
    /** Every such page torn: a drawn mask of its sectors reaches the media, the rest do not. */
    TORN,
    /** Every such page torn, and one byte of the new bytes it wrote inverted: a garbled record or checkpoint. */
    GARBLED
}
