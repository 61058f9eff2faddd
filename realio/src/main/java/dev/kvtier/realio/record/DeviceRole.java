package dev.kvtier.realio.record;

/** Which of a real run's two devices an I/O went to. */
public enum DeviceRole {
    /** The L2 data device (the slot ring). */
    DATA,
    /** The crash-safe index's device. */
    INDEX
}
