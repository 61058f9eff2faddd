/**
 * Journal files: a run's header and events in a Chronicle Queue directory, sealed on close.
 *
 * <p>{@link dev.kvtier.journal.file.JournalWriter} is an {@link dev.kvtier.core.port.EventSink};
 * {@link dev.kvtier.journal.file.JournalReader} checks everything it reads and fails with a one-line
 * {@link dev.kvtier.journal.file.JournalException}. {@link dev.kvtier.journal.file.ExcerptLayout} and
 * {@link dev.kvtier.journal.file.SealLayout} describe the bytes. Only {@code ChronicleSupport} builds queues, with a
 * fixed clock so the same run writes the same files.
 */
package dev.kvtier.journal.file;
