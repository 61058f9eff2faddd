/**
 * The store engine: grouped store and load as parked continuations, write batches and their chaining, I/O queue.
 */
package dev.kvtier.core.store;
