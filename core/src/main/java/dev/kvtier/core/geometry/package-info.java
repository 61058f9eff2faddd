/**
 * Units and geometry: slot size from a model's shape, 4096 alignment, rolling 128-bit prefix keys.
 */
package dev.kvtier.core.geometry;
