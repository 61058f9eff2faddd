/**
 * L1: the pool allocator, the entry map, admission arithmetic and replacement policies, and {@link
 * dev.kvtier.core.l1.L1Cache}, the tiered store's L1 part that puts them together: every transition of a slice's
 * life (reserve, fill, insert, hold for a write, evict, trim, free exactly once) happens there, and the counts a slice
 * carries are changed nowhere else.
 */
package dev.kvtier.core.l1;
