package dev.kvtier.core.config;

/**
 * Where a client puts a staging batch's pieces in its staging memory. Either way the pieces are <em>sent</em> in
 * prefix order (docs/design/STORAGE-CORE.md 4.1, invariant 9) and each byte keeps its source-to-file mapping; only the
 * source offsets differ. The server must not assume that spans consecutive in the order sent are adjacent in source:
 * the coalescer merges only spans adjacent in both source and file (invariant 8).
 */
public enum StagingLayout {
    /** The reference client's: the pieces back to back in the order sent, the first at the batch's start. */
    PACKED,
    /**
     * A connector that fills its staging memory from the end: the pieces back to back in the reverse of the order
     * sent, the last one sent at the batch's start. Spans of consecutive keys that are adjacent in the file are then
     * apart in source, and the boundary must not merge them. Under prefix-aware LRU a stored entry's index is still
     * its position in the staging batch (section 3), so inside a batch the prefix index runs backwards.
     */
    REVERSED
}
