/**
 * The client side of the save path: staging batches, release once staged, background save queue, commit.
 */
package dev.kvtier.core.client;
