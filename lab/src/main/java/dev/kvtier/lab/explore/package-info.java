/**
 * Seed exploration: swarm knobs per seed, sharding across machines (by option or from a Kubernetes Indexed Job's
 * environment), stop at the first failure or go on past failures, journals of failing seeds, shard summaries and
 * their merge into one report (failures grouped by invariant and event, seeds per probe, missing shards).
 */
package dev.kvtier.lab.explore;
