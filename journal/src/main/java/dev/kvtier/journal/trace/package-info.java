/** Export of a journal as Chrome trace-event JSON for the Perfetto UI: requests, saves, loads, I/O lanes, evictions. */
package dev.kvtier.journal.trace;
