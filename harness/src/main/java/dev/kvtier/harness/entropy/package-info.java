/**
 * Seeded random streams: one root seed per run, a child stream per component derived from the parent's seed and the
 * child's name only.
 */
package dev.kvtier.harness.entropy;
