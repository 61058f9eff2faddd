/**
 * Stateful properties: action chains over the whole core (server, client, tiered store, crash-safe index) on
 * simulated memory and two devices whose completions the chain chooses (the L2 data device, provenance; the index
 * device, bytes), each with a volatile write cache and power loss. Every invariant family of the simulator is checked
 * at every event, invariant 15 across crashes and restarts, and a final sweep runs at the end of each chain. Knobs
 * are drawn per chain (swarm testing). Canary tests prove the checks fail on broken variants; regression tests keep
 * the shrunk chains of core bugs the properties found.
 */
package dev.kvtier.property.chain;
