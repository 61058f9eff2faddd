/**
 * L1: the pool allocator, the entry map, admission arithmetic and replacement policies.
 */
package dev.kvtier.core.l1;
