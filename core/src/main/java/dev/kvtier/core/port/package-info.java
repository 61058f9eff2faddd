/**
 * The ports through which the core touches the world: device, memory (and the region resolver that pairs a device
 * with its memory), clock and scheduler, entropy, event sink, stamping.
 */
package dev.kvtier.core.port;
