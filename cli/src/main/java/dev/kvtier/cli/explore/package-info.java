/** Seed exploration: swarm knobs per seed, sharding across machines, stop at the first failure with its journal. */
package dev.kvtier.cli.explore;
