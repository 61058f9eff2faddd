package dev.kvtier.core.config;

/** When a committed key becomes visible to lookups (docs/design/STORAGE-CORE.md 6, third hazard). */
public enum CommitMode {
    /**
     * The reference's mode: visible once its bytes are in L1. Its commit record goes to the index log lazily and its
     * L2 write is not flushed, so a crash may lose the key; after a restart it is never served wrong (every slot read
     * from L2 is checked against the checksum in its commit record).
     */
    L1,
    /**
     * Visible only once its L2 write completed, the data device was flushed, and its commit record was written and
     * the index device flushed. A crash never loses a key committed this way (unless the device silently corrupts it,
     * which is detected, never served).
     */
    DURABLE
}
