/**
 * What the host says about itself in {@code /proc} and {@code /sys}: CPU time counters, the CPUs online and allowed,
 * the CPU model, memory counters and a disk's write cache ({@link dev.kvtier.realio.host.ProcStat}). Every reader
 * answers a neutral value where the file is missing, so no job fails for lack of it.
 */
package dev.kvtier.realio.host;
