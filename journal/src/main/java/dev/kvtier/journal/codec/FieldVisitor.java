package dev.kvtier.journal.codec;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;

/**
 * Receives the fields of one {@link dev.kvtier.core.event.CoreEvent} in their canonical order, as produced by
 * {@link EventFields#visit}. The binary encoder and the text dump are two implementations, so the field order on disk
 * and the field order in a dump come from one switch. Names are the record component names (string constants: no
 * allocation per call). Every method returns this visitor, so a record's fields read as one chain.
 */
public interface FieldVisitor {

    /** The start of an event: its stable tag (see {@link EventLayout}) and its record's simple name. */
    FieldVisitor begin(int tag, String type);

    /** A 32-bit integer field. */
    FieldVisitor i32(String name, int value);

    /** A 64-bit integer field. */
    FieldVisitor i64(String name, long value);

    /** A boolean field. */
    FieldVisitor bool(String name, boolean value);

    /** An enum field, encoded by ordinal. */
    FieldVisitor enumValue(String name, Enum<?> value);

    /** A short text field (at most {@link EventLayout#MAX_TEXT_BYTES} UTF-8 bytes). */
    FieldVisitor text(String name, String value);

    /** A prefix key field. */
    FieldVisitor key(String name, PrefixKey value);

    /** An allocation reference field. */
    FieldVisitor ref(String name, AllocationRef value);

    /** A list of prefix keys. */
    FieldVisitor keys(String name, List<PrefixKey> values);

    /** A list of allocation references. */
    FieldVisitor refs(String name, List<AllocationRef> values);

    /** A list of store specs. */
    FieldVisitor specs(String name, List<StoreSpec> values);

    /** A list of span pieces. */
    FieldVisitor pieces(String name, List<SpanPiece> values);

    /** A list of load ranges. */
    FieldVisitor ranges(String name, List<LoadRange> values);
}
