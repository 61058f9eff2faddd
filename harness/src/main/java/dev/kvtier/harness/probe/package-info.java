/**
 * Coverage probes: the catalogue of the storage core's rare paths ({@link dev.kvtier.harness.probe.ProbeCatalogue}),
 * each a named predicate over the event stream with a one-line meaning (or a fact only the simulator knows), and the
 * recorder that tells which of them one run reached. Both modes record them beside the checkers; an exploration
 * reports per probe the seeds that reached it, and a scenario's {@code [coverage] required} probes must be reached.
 * Nothing here is in the core, and nothing here changes an event.
 */
package dev.kvtier.harness.probe;
