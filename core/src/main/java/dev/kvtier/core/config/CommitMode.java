package dev.kvtier.core.config;

/** When a committed key becomes visible to lookups. */
public enum CommitMode {
    /** The reference's mode: visible once its bytes are in L1; a crash may lose it. */
    L1
}
