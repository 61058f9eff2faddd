/**
 * A recording of what a real run asked of its two devices: every write and flush the L2 data device and the index
 * device were given, with each write's contents, in the order they were submitted and completed, numbered against
 * the core's events ({@link dev.kvtier.realio.record.IoLog}). A decorator of the real devices makes it
 * ({@link dev.kvtier.realio.record.RecordingDevice}); the crash-image checker in {@code lab} builds the disk images a
 * power cut could have left from it.
 */
package dev.kvtier.realio.record;
