package dev.kvtier.core.store;

/**
 * A read-only snapshot of one pending L2 write batch, for state dumps (replay's {@code --until}) and tests.
 *
 * @param batchId        the batch's id (as in {@code BatchSealed})
 * @param storeId        the grouped store that made it
 * @param fileOffset     where it starts in the L2 file
 * @param lengthBytes    how long it is so far
 * @param state          OPEN, SEALED, SUBMITTED or DONE
 * @param unfinishedDeps earlier overlapping writes it still waits for
 */
public record PendingWriteView(long batchId, long storeId, long fileOffset, long lengthBytes, String state,
                               int unfinishedDeps) {}
