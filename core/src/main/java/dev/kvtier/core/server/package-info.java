/**
 * The server facade: directory, boundary (validation, stale filtering, coalescing) and store engine behind one set
 * of inputs.
 */
package dev.kvtier.core.server;
