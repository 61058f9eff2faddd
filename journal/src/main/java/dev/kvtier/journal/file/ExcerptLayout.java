package dev.kvtier.journal.file;

import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.EventLayout;

/**
 * Descriptor of a journal directory and of the excerpts in its Chronicle Queue (STYLE rule 15).
 *
 * <pre>
 *   journal directory
 *     19700101L.cq4         Chronicle Queue data (one cycle: the queue's clock is fixed at FIXED_TIME_MS)
 *     metadata.cq4t         Chronicle Queue table store
 *     kvtier-journal.seal   written last, on close ({@link SealLayout}): names and sizes of the two files above
 *
 *   excerpts, in order: one HEADER, then the events (sequence 0, 1, 2, ...), then one END
 *     format 4:  one EVENTS excerpt per block of up to BLOCK_EVENTS_MAX events (about BLOCK_BYTES_TARGET bytes)
 *     format 2, 3:  one EVENT excerpt per event (read, no longer written)
 *
 *   every excerpt = kind:u8  body  crc:i32le       crc = CRC32C of kind and body
 *
 *   HEADER body  = magic "KVTJ"  version:u16le  scenario:text  seed:i64le  knobCount:varint (name:text value:text)*
 *                  configDigest:text  codeVersion:text  mode:text            (text as in EventLayout, up to
 *                                                                            HEADER_TEXT_BYTES_MAX)
 *   EVENTS body  = firstSequence:varint  count:varint  entry{count}          (format 4)
 *     entry      = timeDelta:zigzag varint  length:varint  event[length]   (timeDelta: from the previous event's
 *                                                                            time, the first event's from 0; event:
 *                                                                            EventLayout, except that each prefix key
 *                                                                            is a KeyDictionary reference: whole the
 *                                                                            first time in the journal, then its
 *                                                                            number)
 *   EVENT  body  = sequence:varint  timeNs:zigzag varint  event             (formats 2, 3; event: EventLayout, the rest
 *                                                                            of the excerpt up to the crc)
 *   END    body  = eventCount:varint  eventDigest:16 bytes                   (EventDigest of every event: XXH3-128;
 *                                                                            formats 2-4: SHA-256, 32 bytes)
 *
 *   +------+-----------+-------+--------------------------------------------+--------+
 *   | 0x04 | firstSeq  | count | (timeDelta length event-with-key-refs)*    | crc32c |     EVENTS excerpt
 *   +------+-----------+-------+--------------------------------------------+--------+
 *   0      1                                                               len-4    len
 * </pre>
 *
 * The digest in END is over the canonical encoding (keys whole) in every format: a reader decodes each event and
 * re-encodes it canonically to check it, so a format-4 journal is checked exactly as an older one.
 *
 * <p>Magic and version come first and are checked before the checksum, so a newer format is reported as newer even if
 * its checksum or layout changed; a flipped bit in the version field therefore reads as "newer version".
 */
public final class ExcerptLayout {
    /**
     * The format version this code writes and the highest it reads. 5: the end record's event digest is XXH3-128
     * (4 and older: SHA-256; they still read and replay). 4: events in EVENTS blocks with a key dictionary (2 and 3
     * have one EVENT excerpt per event). 3: the client's calls and replies go through a transport and each delivery
     * is a Delivered input (2 and older ran them at once).
     */
    public static final int FORMAT_VERSION = 5;
    /** The first format whose end record holds an XXH3-128 event digest; older ones hold SHA-256. */
    public static final int XXH3_DIGEST_VERSION = 5;
    /** The first format with EVENTS blocks and a key dictionary; older journals have one EVENT excerpt per event. */
    public static final int BLOCKS_VERSION = 4;

    /** Excerpt kind: the journal header. */
    public static final int KIND_HEADER = 1;
    /** Excerpt kind: one event. */
    public static final int KIND_EVENT = 2;
    /** Excerpt kind: the end record. */
    public static final int KIND_END = 3;
    /** Excerpt kind: a block of events (format 4). */
    public static final int KIND_EVENTS = 4;
    /** The most events in one EVENTS block. */
    public static final int BLOCK_EVENTS_MAX = 4096;
    /** A block is written once its entries reach this many bytes (or {@link #BLOCK_EVENTS_MAX} events). */
    public static final int BLOCK_BYTES_TARGET = 64 << 10;
    /** Bytes of an EVENTS excerpt besides its entries, at most: kind, two varints, crc. */
    public static final int BLOCK_FRAME_BYTES_MAX = 1 + 10 + 5 + ExcerptLayout.CRC_BYTES;

    /** Offset of the kind byte. */
    public static final int KIND_OFFSET = 0;
    /** Offset of the body. */
    public static final int BODY_OFFSET = 1;
    /** Bytes of the trailing checksum. */
    public static final int CRC_BYTES = 4;
    /** The header magic, "KVTJ" read as a little-endian int. */
    public static final int HEADER_MAGIC = 'K' | 'V' << 8 | 'T' << 16 | 'J' << 24;
    /** Offset of the header's version field (after kind and magic). */
    public static final int HEADER_VERSION_OFFSET = BODY_OFFSET + Integer.BYTES;

    /** The largest text in the header (the scenario's full text), in UTF-8 bytes. */
    public static final int HEADER_TEXT_BYTES_MAX = 1 << 20;
    /** The most knobs in a header. */
    public static final int KNOBS_MAX = 4096;
    /** The largest excerpt: an event at its limit plus framing, or a header at its limit. */
    public static final int EXCERPT_BYTES_MAX = 8 << 20;
    /** Chronicle block size; an excerpt may be at most a quarter of it. */
    public static final long BLOCK_BYTES = 4L * EXCERPT_BYTES_MAX;
    /** The queue's fixed clock, so the same run writes the same file names and bytes. */
    public static final long FIXED_TIME_MS = 0L;
    /** The name of the one data file a journal has (the cycle of {@link #FIXED_TIME_MS}). */
    public static final String DATA_FILE = "19700101L.cq4";
    /** The name of Chronicle's table store. */
    public static final String TABLE_FILE = "metadata.cq4t";
    /** The most events a journal holds (the roll cycle holds more; this keeps every count well inside it). */
    public static final long EVENTS_MAX = 1L << 36;

    static {
        if (EXCERPT_BYTES_MAX < EventLayout.MAX_EVENT_BYTES + 32 || EXCERPT_BYTES_MAX < 2 * HEADER_TEXT_BYTES_MAX) {
            throw new ExceptionInInitializerError("excerpt limit too small for its contents");
        }
    }

    private ExcerptLayout() {}

    /** Checks an excerpt's length against the format's limits; returns it. */
    public static int checkExcerptLength(final long lengthBytes) {
        if (lengthBytes < BODY_OFFSET + CRC_BYTES || lengthBytes > EXCERPT_BYTES_MAX) {
            throw new IllegalArgumentException("excerpt of " + lengthBytes + " bytes outside "
                + (BODY_OFFSET + CRC_BYTES) + ".." + EXCERPT_BYTES_MAX);
        }
        return (int) lengthBytes;
    }

    /** The hash of the event digest in the END excerpt of a journal of format {@code version}. */
    public static EventDigest.Algorithm digestAlgorithm(final int version) {
        return version >= XXH3_DIGEST_VERSION ? EventDigest.Algorithm.XXH3_128 : EventDigest.Algorithm.SHA_256;
    }
}
