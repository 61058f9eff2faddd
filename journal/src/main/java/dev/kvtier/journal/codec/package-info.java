/**
 * The canonical binary encoding of {@link dev.kvtier.core.event.CoreEvent} records and the run digest over it.
 *
 * <p>{@link dev.kvtier.journal.codec.EventLayout} describes the bytes; {@link dev.kvtier.journal.codec.EventFields}
 * is the one exhaustive switch that lists each record's fields in order; {@link dev.kvtier.journal.codec.EventCodec}
 * encodes and decodes; {@link dev.kvtier.journal.codec.EventDigest} hashes {@code (timeNs, canonical bytes)} of a run
 * for its report. Nothing here touches Chronicle, so the simulator can digest a run without loading it.
 */
package dev.kvtier.journal.codec;
