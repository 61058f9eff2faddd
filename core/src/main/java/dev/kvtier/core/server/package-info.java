/**
 * The server facade: directory, boundary (validation, stale filtering, coalescing) and tiered store behind one set
 * of inputs.
 */
package dev.kvtier.core.server;
