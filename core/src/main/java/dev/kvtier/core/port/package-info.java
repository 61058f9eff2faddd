/**
 * The ports through which the core touches the world: device, memory, clock and scheduler, entropy, event sink, stamping.
 */
package dev.kvtier.core.port;
