/**
 * What a run is and what it leaves, in either mode: the fan-out of events to the run's sinks, the recorder of phase
 * times and wrong bytes, and the run report (the shape the CLI writes as JSON).
 */
package dev.kvtier.harness.run;
