/**
 * L2: the FIFO slot ring and the directory over it, with two-phase publication (claims, commits, leases).
 */
package dev.kvtier.core.l2;
