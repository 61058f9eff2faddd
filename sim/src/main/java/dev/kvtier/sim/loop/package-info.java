/**
 * The virtual-time event loop and the simulated single server thread.
 */
package dev.kvtier.sim.loop;
