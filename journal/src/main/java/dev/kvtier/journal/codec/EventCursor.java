package dev.kvtier.journal.codec;

import dev.kvtier.core.value.PrefixKey;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked little-endian reader over {@code [offset, offset + length)} of a byte array: the read side of
 * {@link EventBuffer}. Every read that runs past the end, and every value outside its field's range, throws
 * {@link EventFormatException}; varints must be in their shortest form, so one event has one encoding.
 */
public final class EventCursor {
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    private byte[] bytes = new byte[0];
    private int position;
    private int limit;
    private KeyDictionary dictionary;
    /** Where the event's canonical bytes go while it is decoded, or null. */
    private EventBuffer canonical;
    /** The first byte read and not yet copied to {@link #canonical}. */
    private int canonicalFrom;

    /** Keys are read through {@code keys} (journal format 4), or whole when it is {@code null} (canonical). */
    public EventCursor dictionary(final KeyDictionary keys) {
        this.dictionary = keys;
        return this;
    }

    /**
     * While an event is decoded, its canonical bytes (the bytes {@code EventCodec.encode(event, out)} writes) are
     * appended to {@code out}: the bytes read go out as they are, a dictionary key whole; {@code null}: not at all.
     */
    EventCursor canonical(final EventBuffer out) {
        this.canonical = out;
        return this;
    }

    /** A dictionary key is read next: the bytes before it go to the canonical bytes as they are. */
    void beforeKey() {
        if (canonical != null) {
            canonical.putBytes(bytes, canonicalFrom, position - canonicalFrom);
        }
    }

    /** The dictionary key just read goes to the canonical bytes whole (hi, lo, little-endian). */
    void afterKey(final PrefixKey key) {
        if (canonical != null) {
            canonical.putLongLe(key.hi());
            canonical.putLongLe(key.lo());
            canonicalFrom = position;
        }
    }

    /** The event is read: its bytes after the last dictionary key go to the canonical bytes as they are. */
    void endCanonical() {
        if (canonical != null) {
            canonical.putBytes(bytes, canonicalFrom, limit - canonicalFrom);
        }
    }

    /** The dictionary keys are read through, or {@code null}. */
    KeyDictionary dictionary() {
        return dictionary;
    }

    /** Points the cursor at {@code [offset, offset + length)} of {@code source}. */
    public EventCursor wrap(final byte[] source, final int offset, final int length) {
        if (offset < 0 || length < 0 || offset + length > source.length) {
            throw new IllegalArgumentException("bad window " + offset + "+" + length + " of " + source.length);
        }
        this.bytes = source;
        this.position = offset;
        this.limit = offset + length;
        this.canonicalFrom = offset;
        return this;
    }

    /** Bytes left to read. */
    public int remaining() {
        return limit - position;
    }

    /** The absolute read position in the wrapped array. */
    public int position() {
        return position;
    }

    /** Reads one unsigned byte. */
    public int u8() throws EventFormatException {
        need(1);
        return bytes[position++] & 0xFF;
    }

    /** Reads 4 bytes, little-endian. */
    public int intLe() throws EventFormatException {
        need(Integer.BYTES);
        int value = 0;
        for (int i = 0; i < Integer.BYTES; i++) {
            value |= (bytes[position++] & 0xFF) << (i * Byte.SIZE);
        }
        return value;
    }

    /** Reads 8 bytes, little-endian. */
    public long longLe() throws EventFormatException {
        need(Long.BYTES);
        long value = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            value |= (bytes[position++] & 0xFFL) << (i * Byte.SIZE);
        }
        return value;
    }

    /** Reads an unsigned varint in its shortest form. */
    public long varLong() throws EventFormatException {
        long value = 0;
        for (int i = 0; i < EventLayout.VARLONG_BYTES_MAX; i++) {
            final int b = u8();
            if (i == EventLayout.VARLONG_BYTES_MAX - 1 && b > 1) {
                throw new EventFormatException("varint longer than 64 bits at byte " + (position - 1));
            }
            value |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw new EventFormatException("varint not in shortest form at byte " + (position - 1));
                }
                return value;
            }
        }
        throw new EventFormatException("varint longer than 64 bits at byte " + (position - 1));
    }

    /** Reads a zigzag varint long. */
    public long zigZagLong() throws EventFormatException {
        final long raw = varLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** Reads a zigzag varint int. */
    public int zigZagInt() throws EventFormatException {
        final long raw = varLong();
        if (raw > 0xFFFF_FFFFL) {
            throw new EventFormatException("int field out of range: " + Long.toUnsignedString(raw));
        }
        final int bits = (int) raw;
        return (bits >>> 1) ^ -(bits & 1);
    }

    /** Reads a varint count in {@code [0, max]}. */
    public int count(final int max) throws EventFormatException {
        final long raw = varLong();
        if (raw < 0 || raw > max) {
            throw new EventFormatException("count " + Long.toUnsignedString(raw) + " out of range 0.." + max);
        }
        return (int) raw;
    }

    /** Reads a boolean byte, 0 or 1. */
    public boolean bool() throws EventFormatException {
        final int b = u8();
        if (b > 1) {
            throw new EventFormatException("boolean byte " + b + " is neither 0 nor 1");
        }
        return b == 1;
    }

    /** Reads an enum ordinal byte. */
    public <E extends Enum<E>> E enumValue(final E[] values) throws EventFormatException {
        final int ordinal = u8();
        if (ordinal >= values.length) {
            throw new EventFormatException("ordinal " + ordinal + " out of range for "
                + values[0].getDeclaringClass().getSimpleName());
        }
        return values[ordinal];
    }

    /** Reads a text of at most {@code maxBytes} well-formed UTF-8 bytes. */
    public String text(final int maxBytes) throws EventFormatException {
        final int length = count(maxBytes);
        need(length);
        final int start = position;
        position += length;
        try {
            return utf8.decode(ByteBuffer.wrap(bytes, start, length)).toString();
        } catch (final CharacterCodingException e) {
            throw new EventFormatException("text is not well-formed UTF-8 at byte " + start);
        }
    }

    private void need(final int count) throws EventFormatException {
        if (count > limit - position) {
            throw new EventFormatException("field runs past the end: need " + count + " bytes at byte " + position
                + ", have " + (limit - position));
        }
    }
}
