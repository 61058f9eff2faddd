package dev.kvtier.core.config;

/** The L1 replacement policies the core offers. */
public enum ReplacementKind {
    /** Headroom (promoted) entries first, then least recently used (the reference's order). */
    LRU,
    /** Headroom first; within a class, older request groups first and, inside a group, suffix before prefix. */
    PREFIX_LRU
}
