package dev.kvtier.realio.uring;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/** Shared by the descriptor classes: compares an offset constant with a field of a reference layout. */
final class LayoutCheck {
    private LayoutCheck() {}

    static void offset(final StructLayout layout, final String field, final long expected) {
        final long actual = layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
        if (actual != expected) {
            throw new IllegalStateException(layout.name().orElse("struct") + "." + field + " is at " + actual
                + ", the descriptor says " + expected);
        }
    }

    static void size(final StructLayout layout, final long expected) {
        if (layout.byteSize() != expected) {
            throw new IllegalStateException(layout.name().orElse("struct") + " is " + layout.byteSize()
                + " B, the descriptor says " + expected);
        }
    }
}
