/**
 * L2: the FIFO slot ring, the directory over it with two-phase publication (claims, commits, leases), and the
 * per-slot checksums of its chunks ({@link dev.kvtier.core.l2.Checksums}: taken on store, checked on read).
 */
package dev.kvtier.core.l2;
