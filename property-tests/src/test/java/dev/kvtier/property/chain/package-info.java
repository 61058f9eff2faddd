/**
 * Stateful properties: jqwik action chains over the whole core (server, client, store engine) on simulated memory
 * and a device whose completions the chain chooses, with every invariant family of the simulator checked at every
 * event and a final sweep at the end of each chain. Knobs are drawn per chain (swarm testing).
 */
package dev.kvtier.property.chain;
