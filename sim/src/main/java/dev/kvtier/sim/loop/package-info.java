/**
 * The virtual-time event loop, seeded random streams, and the simulated single server thread.
 */
package dev.kvtier.sim.loop;
