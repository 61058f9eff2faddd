/**
 * The kvtier command line (picocli): the composition root for runs outside tests.
 */
package dev.kvtier.cli;
