/**
 * The host cost model: what the core's own work costs on the server thread, in virtual time.
 */
package dev.kvtier.sim.host;
