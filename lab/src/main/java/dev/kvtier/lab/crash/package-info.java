/**
 * Crash campaigns on the real backend ({@code kvtier crash-campaign}): a scenario run for real in a fresh process and
 * killed with SIGKILL at a seeded point of its life, its files recovered in the next fresh process, and what recovery
 * returned judged against the run's acknowledgement log (no wrong byte, no lost commit that had to survive, a prefix
 * of the index log); kill points, the campaign's processes, figures, shard summaries and their merge.
 */
package dev.kvtier.lab.crash;
