package dev.kvtier.journal.codec;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.List;

/** The {@link FieldVisitor} that writes the canonical bytes of {@link EventLayout} into an {@link EventBuffer}. */
final class BinaryFieldWriter implements FieldVisitor {
    private static final int ORDINAL_MAX = 0xFF;

    private EventBuffer out;
    private KeyDictionary dictionary;

    /** Sets the buffer the next event goes to ({@code null} between events). */
    void target(final EventBuffer buffer) {
        this.out = buffer;
    }

    /** Keys go through {@code keys} (journal format 4), or whole when it is {@code null} (the canonical encoding). */
    void dictionary(final KeyDictionary keys) {
        this.dictionary = keys;
    }

    @Override
    public FieldVisitor begin(final int tag, final String type) {
        if (tag < 1 || tag > EventLayout.TAG_MAX) {
            throw new IllegalArgumentException("tag " + tag + " of " + type + " out of range");
        }
        out.putByte(tag);
        return this;
    }

    @Override
    public FieldVisitor i32(final String name, final int value) {
        out.putZigZagInt(value);
        return this;
    }

    @Override
    public FieldVisitor i64(final String name, final long value) {
        out.putZigZagLong(value);
        return this;
    }

    @Override
    public FieldVisitor bool(final String name, final boolean value) {
        out.putByte(value ? 1 : 0);
        return this;
    }

    @Override
    // The ordinal is the format (EventLayout: reordering an enum needs a new format version); the golden digest in
    // EventDigestTest pins it.
    @SuppressWarnings("EnumOrdinal")
    public FieldVisitor enumValue(final String name, final Enum<?> value) {
        final int ordinal = value.ordinal();
        if (ordinal > ORDINAL_MAX) {
            throw new IllegalArgumentException(name + " ordinal " + ordinal + " does not fit a byte");
        }
        out.putByte(ordinal);
        return this;
    }

    @Override
    public FieldVisitor text(final String name, final String value) {
        out.putText(value, EventLayout.MAX_TEXT_BYTES);
        return this;
    }

    @Override
    public FieldVisitor key(final String name, final PrefixKey value) {
        if (dictionary != null) {
            dictionary.write(value, out);
            return this;
        }
        out.putLongLe(value.hi());
        out.putLongLe(value.lo());
        return this;
    }

    @Override
    public FieldVisitor ref(final String name, final AllocationRef value) {
        key(name, value.key());
        out.putZigZagLong(value.allocationId());
        out.putZigZagInt(value.startSlot());
        out.putZigZagInt(value.slotCount());
        return this;
    }

    @Override
    public FieldVisitor keys(final String name, final List<PrefixKey> values) {
        putCount(name, values.size());
        for (int i = 0; i < values.size(); i++) {
            key(name, values.get(i));
        }
        return this;
    }

    @Override
    public FieldVisitor refs(final String name, final List<AllocationRef> values) {
        putCount(name, values.size());
        for (int i = 0; i < values.size(); i++) {
            ref(name, values.get(i));
        }
        return this;
    }

    @Override
    public FieldVisitor specs(final String name, final List<StoreSpec> values) {
        putCount(name, values.size());
        for (int i = 0; i < values.size(); i++) {
            final StoreSpec spec = values.get(i);
            ref(name, spec.alloc());
            putCount(name, spec.blocks().size());
            for (int b = 0; b < spec.blocks().size(); b++) {
                out.putZigZagInt(spec.blocks().get(b));
            }
            out.putZigZagLong(spec.fileOffset());
        }
        return this;
    }

    @Override
    public FieldVisitor pieces(final String name, final List<SpanPiece> values) {
        putCount(name, values.size());
        for (int i = 0; i < values.size(); i++) {
            final SpanPiece piece = values.get(i);
            ref(name, piece.alloc());
            out.putZigZagLong(piece.srcOffset());
            out.putZigZagLong(piece.fileOffset());
            out.putZigZagLong(piece.lengthBytes());
        }
        return this;
    }

    @Override
    public FieldVisitor ranges(final String name, final List<LoadRange> values) {
        putCount(name, values.size());
        for (int i = 0; i < values.size(); i++) {
            final LoadRange range = values.get(i);
            ref(name, range.alloc());
            out.putZigZagLong(range.fileOffset());
            out.putZigZagLong(range.lengthBytes());
            out.putZigZagLong(range.destOffset());
        }
        return this;
    }

    private void putCount(final String name, final int count) {
        if (count > EventLayout.MAX_LIST_COUNT) {
            throw new IllegalArgumentException(name + " has " + count + " elements > " + EventLayout.MAX_LIST_COUNT);
        }
        out.putVarLong(count);
    }
}
