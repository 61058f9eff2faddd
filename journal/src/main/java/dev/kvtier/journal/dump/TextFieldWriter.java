package dev.kvtier.journal.dump;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import dev.kvtier.journal.codec.FieldVisitor;
import java.util.List;

/**
 * The {@link FieldVisitor} that prints an event as {@code Type field=value ...}: keys as 32 hex digits, an allocation
 * as {@code key/allocationId@startSlot+slotCount}, lists in brackets. Texts are quoted with Java escapes.
 */
final class TextFieldWriter implements FieldVisitor {
    private final StringBuilder line;

    TextFieldWriter(final StringBuilder line) {
        this.line = line;
    }

    @Override
    public FieldVisitor begin(final int tag, final String type) {
        line.append(type);
        return this;
    }

    @Override
    public FieldVisitor i32(final String name, final int value) {
        line.append(' ').append(name).append('=').append(value);
        return this;
    }

    @Override
    public FieldVisitor i64(final String name, final long value) {
        line.append(' ').append(name).append('=').append(value);
        return this;
    }

    @Override
    public FieldVisitor bool(final String name, final boolean value) {
        line.append(' ').append(name).append('=').append(value);
        return this;
    }

    @Override
    public FieldVisitor enumValue(final String name, final Enum<?> value) {
        line.append(' ').append(name).append('=').append(value.name());
        return this;
    }

    @Override
    public FieldVisitor text(final String name, final String value) {
        line.append(' ').append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7F) {
                line.append(String.format("\\u%04x", (int) c));
            } else {
                line.append(c);
            }
        }
        line.append('"');
        return this;
    }

    @Override
    public FieldVisitor key(final String name, final PrefixKey value) {
        line.append(' ').append(name).append('=').append(value.hex());
        return this;
    }

    @Override
    public FieldVisitor ref(final String name, final AllocationRef value) {
        line.append(' ').append(name).append('=');
        appendRef(value);
        return this;
    }

    @Override
    public FieldVisitor keys(final String name, final List<PrefixKey> values) {
        line.append(' ').append(name).append("=[");
        for (int i = 0; i < values.size(); i++) {
            line.append(i == 0 ? "" : ",").append(values.get(i).hex());
        }
        line.append(']');
        return this;
    }

    @Override
    public FieldVisitor refs(final String name, final List<AllocationRef> values) {
        line.append(' ').append(name).append("=[");
        for (int i = 0; i < values.size(); i++) {
            line.append(i == 0 ? "" : ",");
            appendRef(values.get(i));
        }
        line.append(']');
        return this;
    }

    @Override
    public FieldVisitor specs(final String name, final List<StoreSpec> values) {
        line.append(' ').append(name).append("=[");
        for (int i = 0; i < values.size(); i++) {
            final StoreSpec spec = values.get(i);
            line.append(i == 0 ? "{" : ",{");
            appendRef(spec.alloc());
            line.append(" blocks=").append(spec.blocks()).append(" fileOffset=").append(spec.fileOffset()).append('}');
        }
        line.append(']');
        return this;
    }

    @Override
    public FieldVisitor pieces(final String name, final List<SpanPiece> values) {
        line.append(' ').append(name).append("=[");
        for (int i = 0; i < values.size(); i++) {
            final SpanPiece piece = values.get(i);
            line.append(i == 0 ? "{" : ",{");
            appendRef(piece.alloc());
            line.append(" srcOffset=").append(piece.srcOffset()).append(" fileOffset=").append(piece.fileOffset())
                .append(" lengthBytes=").append(piece.lengthBytes()).append('}');
        }
        line.append(']');
        return this;
    }

    @Override
    public FieldVisitor ranges(final String name, final List<LoadRange> values) {
        line.append(' ').append(name).append("=[");
        for (int i = 0; i < values.size(); i++) {
            final LoadRange range = values.get(i);
            line.append(i == 0 ? "{" : ",{");
            appendRef(range.alloc());
            line.append(" fileOffset=").append(range.fileOffset()).append(" lengthBytes=").append(range.lengthBytes())
                .append(" destOffset=").append(range.destOffset()).append('}');
        }
        line.append(']');
        return this;
    }

    private void appendRef(final AllocationRef ref) {
        line.append(ref.key().hex()).append('/').append(ref.allocationId()).append('@').append(ref.startSlot())
            .append('+').append(ref.slotCount());
    }
}
