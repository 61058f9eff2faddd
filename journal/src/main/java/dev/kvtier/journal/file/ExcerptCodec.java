package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.EventCodec;
import dev.kvtier.journal.codec.EventCursor;
import dev.kvtier.journal.codec.EventFormatException;
import dev.kvtier.journal.codec.KeyDictionary;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static dev.kvtier.journal.file.ExcerptLayout.*;

/** Writes and reads the excerpts of {@link ExcerptLayout}. One per writer or reader; not thread-safe. */
final class ExcerptCodec {
    private final EventCodec events = new EventCodec();
    private final EventCursor cursor = new EventCursor();
    private final CRC32C crc = new CRC32C();

    /** Writes a HEADER excerpt into {@code out} (reset first). */
    void header(final JournalHeader header, final EventBuffer out) {
        out.reset();
        out.putByte(KIND_HEADER);
        out.putIntLe(HEADER_MAGIC);
        out.putByte(header.formatVersion() & 0xFF);
        out.putByte(header.formatVersion() >>> 8);
        out.putText(header.scenario(), HEADER_TEXT_BYTES_MAX);
        out.putLongLe(header.seed());
        out.putVarLong(header.knobs().size());
        for (final Map.Entry<String, String> knob : header.knobs().entrySet()) {
            out.putText(knob.getKey(), HEADER_TEXT_BYTES_MAX);
            out.putText(knob.getValue(), HEADER_TEXT_BYTES_MAX);
        }
        out.putText(header.configDigest(), HEADER_TEXT_BYTES_MAX);
        out.putText(header.codeVersion(), HEADER_TEXT_BYTES_MAX);
        out.putText(header.mode(), HEADER_TEXT_BYTES_MAX);
        appendCrc(out);
    }

    /**
     * Writes an EVENT excerpt of format 2 or 3 into {@code out} (reset first); returns the offset of the canonical
     * event bytes. The writer no longer writes these (format 4 has EVENTS blocks); tests build older journals with it.
     */
    int event(final long sequence, final long timeNs, final CoreEvent event, final EventBuffer out) {
        out.reset();
        out.putByte(KIND_EVENT);
        out.putVarLong(sequence);
        out.putZigZagLong(timeNs);
        final int eventOffset = out.length();
        events.encode(event, out);
        appendCrc(out);
        return eventOffset;
    }

    /**
     * Appends one entry of an EVENTS block to {@code entries}: the time since {@code previousTimeNs}, then the event
     * with its keys through {@code keys}, after its length. {@code scratch} is reused for the event.
     */
    void entry(final long previousTimeNs, final long timeNs, final CoreEvent event, final KeyDictionary keys,
               final EventBuffer scratch, final EventBuffer entries) {
        scratch.reset();
        events.encode(event, scratch, keys);
        entries.putZigZagLong(timeNs - previousTimeNs);
        entries.putVarLong(scratch.length());
        entries.putBytes(scratch.array(), 0, scratch.length());
    }

    /** Writes an EVENTS excerpt of {@code count} entries from {@code firstSequence} into {@code out} (reset first). */
    void block(final long firstSequence, final int count, final EventBuffer entries, final EventBuffer out) {
        out.reset();
        out.putByte(KIND_EVENTS);
        out.putVarLong(firstSequence);
        out.putVarLong(count);
        out.putBytes(entries.array(), 0, entries.length());
        appendCrc(out);
    }

    /** Writes the END excerpt into {@code out} (reset first). */
    void end(final long eventCount, final byte[] digest, final EventBuffer out) {
        if (digest.length != EventDigest.Algorithm.XXH3_128.bytes() && digest.length != EventDigest.Algorithm.SHA_256
            .bytes()) {
            throw new IllegalArgumentException("digest of " + digest.length + " bytes");
        }
        out.reset();
        out.putByte(KIND_END);
        out.putVarLong(eventCount);
        out.putBytes(digest, 0, digest.length);
        appendCrc(out);
    }

    /** True when the last 4 bytes of {@code [0, length)} are the CRC32C of the bytes before them. */
    boolean crcMatches(final byte[] excerpt, final int length) {
        crc.reset();
        crc.update(excerpt, 0, length - CRC_BYTES);
        final int stored = (excerpt[length - 4] & 0xFF) | (excerpt[length - 3] & 0xFF) << 8
            | (excerpt[length - 2] & 0xFF) << 16 | (excerpt[length - 1] & 0xFF) << 24;
        return stored == (int) crc.getValue();
    }

    /** The format version of a HEADER excerpt, or -1 when it does not start with the magic. */
    static int headerVersion(final byte[] excerpt, final int length) {
        if (length < HEADER_VERSION_OFFSET + 2 || excerpt[KIND_OFFSET] != KIND_HEADER) {
            return -1;
        }
        final int magic = (excerpt[1] & 0xFF) | (excerpt[2] & 0xFF) << 8 | (excerpt[3] & 0xFF) << 16
            | (excerpt[4] & 0xFF) << 24;
        if (magic != HEADER_MAGIC) {
            return -1;
        }
        return (excerpt[HEADER_VERSION_OFFSET] & 0xFF) | (excerpt[HEADER_VERSION_OFFSET + 1] & 0xFF) << 8;
    }

    /** Decodes the body of a HEADER excerpt whose magic, version and CRC were checked. */
    JournalHeader decodeHeader(final byte[] excerpt, final int length, final int version) throws EventFormatException {
        final EventCursor c = cursor.wrap(excerpt, HEADER_VERSION_OFFSET + 2,
            length - HEADER_VERSION_OFFSET - 2 - CRC_BYTES);
        final String scenario = c.text(HEADER_TEXT_BYTES_MAX);
        final long seed = c.longLe();
        final int knobCount = c.count(KNOBS_MAX);
        final TreeMap<String, String> knobs = new TreeMap<>();
        for (int i = 0; i < knobCount; i++) {
            knobs.put(c.text(HEADER_TEXT_BYTES_MAX), c.text(HEADER_TEXT_BYTES_MAX));
        }
        final String configDigest = c.text(HEADER_TEXT_BYTES_MAX);
        final String codeVersion = c.text(HEADER_TEXT_BYTES_MAX);
        final String mode = c.text(HEADER_TEXT_BYTES_MAX);
        if (c.remaining() != 0 || knobs.size() != knobCount) {
            throw new EventFormatException("header has " + c.remaining() + " trailing bytes or repeated knobs");
        }
        try {
            return new JournalHeader(version, scenario, seed, knobs, configDigest, codeVersion, mode);
        } catch (final IllegalArgumentException e) {
            throw new EventFormatException("header does not decode: " + e.getMessage());
        }
    }

    /** A cursor over the body of an excerpt (between the kind byte and the CRC). */
    EventCursor body(final byte[] excerpt, final int length) {
        return cursor.wrap(excerpt, BODY_OFFSET, length - BODY_OFFSET - CRC_BYTES);
    }

    /** Decodes {@code [offset, offset + length)} as one canonical event. */
    CoreEvent decodeEvent(final byte[] source, final int offset, final int length) throws EventFormatException {
        return events.decode(source, offset, length);
    }

    /**
     * Decodes {@code [offset, offset + length)} as one event whose keys are {@code keys} references (format 4), and
     * appends its canonical bytes to {@code canonical}.
     */
    CoreEvent decodeEvent(final byte[] source, final int offset, final int length, final KeyDictionary keys,
                          final EventBuffer canonical) throws EventFormatException {
        return events.decode(source, offset, length, keys, canonical);
    }

    private void appendCrc(final EventBuffer out) {
        crc.reset();
        crc.update(out.array(), 0, out.length());
        out.putIntLe((int) crc.getValue());
    }
}
