/**
 * The crash-safe L2 index on its own device (docs/design/STORAGE-CORE.md 6, invariant 15): what survives a crash of the
 * store and how it is found again.
 *
 * <ul>
 *   <li>{@link dev.kvtier.core.index.IndexLayout}: where things live on the index device (two checkpoint areas, then
 *       the log area).</li>
 *   <li>{@link dev.kvtier.core.index.IndexCodec}: the byte formats (records, checkpoints, chunks), each under a
 *       CRC32C, so a torn, stale or zeroed piece is recognised and ends what is trusted.</li>
 *   <li>{@link dev.kvtier.core.index.IndexOpener}: recovers (newest intact checkpoint plus the intact records after
 *       it) or formats, always moving to an epoch above every epoch on the device.</li>
 *   <li>{@link dev.kvtier.core.index.IndexLog}: the writer: an append-only record log (COMMIT, EVICT) with periodic
 *       checkpoints, at most one I/O in flight, and {@code whenDurable} for durable commits.</li>
 *   <li>{@link dev.kvtier.core.index.IndexIo}: the port the opener and the log use to reach the device (one staging
 *       buffer); the tiered store implements it over its I/O queue, so index I/Os share its id sequence
 *       and completion path.</li>
 * </ul>
 *
 * <p>The directory ({@code l2}) decides what is logged; this package only persists and recovers it. The server
 * ({@code server.KvServer}) wires the two together when it opens the index, which every server does before taking
 * any other input.
 */
package dev.kvtier.core.index;
