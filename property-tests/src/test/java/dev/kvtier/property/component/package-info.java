/**
 * Component properties: each core component against a small reference model written here (L1 pool, replacement
 * policies, L2 ring and index, span coalescing, staging builder, admission arithmetic).
 */
package dev.kvtier.property.component;
