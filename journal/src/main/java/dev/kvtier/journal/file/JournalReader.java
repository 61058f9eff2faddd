package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCursor;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.EventFormatException;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.codec.KeyDictionary;
import dev.kvtier.journal.file.JournalException.Problem;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a journal written by {@link JournalWriter}, checking it as it goes: the seal and file sizes before Chronicle
 * maps anything, then the header, then every event's checksum, sequence number, time order and decoding, and at the
 * end the end record's count and event digest. A journal that is missing, not a journal, truncated, corrupted or
 * newer fails with a {@link JournalException}; {@link #next} returns {@code null} only after the whole journal has
 * been checked, so a partial read is never reported as complete.
 *
 * <pre>{@code
 * try (JournalReader reader = JournalReader.open(dir)) {
 *     JournalHeader header = reader.header();
 *     for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
 *         switch (entry.event()) {
 *             case CoreEvent.Input in -> ... feed ...
 *             case CoreEvent.Decision d -> ... compare ...
 *             case CoreEvent.Note n -> ... skip ...
 *         }
 *     }
 * }
 * }</pre>
 */
public final class JournalReader implements AutoCloseable {
    private static final int INITIAL_EXCERPT_BYTES = 4096;

    private final Path dir;
    private final JournalSeal seal;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final ExcerptCodec excerpts = new ExcerptCodec();
    /** The event digest, with the hash of the journal's format (its end record holds one). */
    private final EventDigest digest;
    private final JournalHeader header;
    private final KeyDictionary keys = new KeyDictionary();
    /** The canonical bytes of the event being read (format 4), as the event digest takes them. */
    private final EventBuffer canonical = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
    private final EventCursor block = new EventCursor();
    /** Entries left in the current EVENTS block (format 4). */
    private int blockLeft;
    private byte[] excerpt = new byte[INITIAL_EXCERPT_BYTES];
    private int excerptLength;
    private long nextSequence;
    private long lastTimeNs = Long.MIN_VALUE;
    private boolean ended;
    /** Reads ahead once {@link #next} is first called; null before. */
    private ReadAhead ahead;
    /** Events {@link #next} returned. */
    private long returned;
    /** Reading a journal whose writer was killed ({@link JournalSalvage}): it ends where its whole excerpts end. */
    private boolean salvaging;
    /** What a salvage kept, once it reached the end of the complete excerpts; null before or when not salvaging. */
    private String salvaged;

    private JournalReader(final Path dir, final JournalSeal seal,
                          final SingleChronicleQueue queue) throws JournalException {
        this.dir = dir;
        this.seal = seal;
        this.queue = queue;
        this.tailer = queue.createTailer();
        this.header = readHeader();
        this.digest = new EventDigest(ExcerptLayout.digestAlgorithm(header.formatVersion()));
    }

    /** Opens and checks the journal in {@code dir} up to and including its header. */
    public static JournalReader open(final Path dir) throws JournalException {
        return openQueue(dir, JournalSeal.checkDirectory(dir), false);
    }

    /** Opens the queue of {@code dir} (checked by {@code seal}, or salvaged: null) and reads its header. */
    static JournalReader openQueue(final Path dir, final JournalSeal seal,
                                   final boolean salvaging) throws JournalException {
        final SingleChronicleQueue queue;
        try {
            queue = ChronicleSupport.open(dir, true);
        } catch (final RuntimeException | InternalError e) {
            throw new JournalException(Problem.CORRUPTED, dir, "the queue does not open: " + brief(e));
        }
        try {
            final JournalReader reader = new JournalReader(dir, seal, queue);
            reader.salvaging = salvaging;
            return reader;
        } catch (final JournalException e) {
            closeQuietly(queue);
            throw e;
        } catch (final RuntimeException | InternalError e) {
            // Chronicle reads the queue file's own header when a tailer is made: a damaged one throws from there.
            closeQuietly(queue);
            throw new JournalException(Problem.CORRUPTED, dir, "the queue file's header does not decode: "
                + brief(e));
        }
    }

    /**
     * After a salvage ({@link JournalSalvage}) read to its end: one line saying what it kept and what is lost; null
     * for a sealed journal (or before the end).
     */
    public String salvaged() {
        return salvaged;
    }

    /** Reads and checks the whole journal; returns what it holds. */
    public static JournalSummary verify(final Path dir) throws JournalException {
        try (JournalReader reader = open(dir)) {
            long first = 0;
            long last = 0;
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                first = entry.sequence() == 0 ? entry.timeNs() : first;
                last = entry.timeNs();
            }
            return new JournalSummary(reader.header(), reader.eventsRead(), first, last, reader.eventDigest());
        }
    }

    /** The journal's header. */
    public JournalHeader header() {
        return header;
    }

    /** The journal directory. */
    public Path path() {
        return dir;
    }

    /** The number of events the seal promises (known before reading them); -1 for a salvage, which has no seal. */
    public long eventCount() {
        return seal == null ? -1 : seal.eventCount();
    }

    /** Events returned by {@link #next} so far. */
    public long eventsRead() {
        return returned;
    }

    /** The {@link EventDigest} of the events, once {@link #next} has returned {@code null}. */
    public String eventDigest() {
        if (!ended) {
            throw new IllegalStateException("the event digest is known after the last event");
        }
        return digest.finish();
    }

    /**
     * The next event, or {@code null} once the end record has been read and checked. The journal is read, checked and
     * decoded ahead on a thread of its own ({@link ReadAhead}, started by the first call), with the same entries and
     * the same failures at the same places as reading here.
     */
    public JournalEntry next() throws JournalException {
        if (ahead == null) {
            // The tailer moves to the reading thread until close takes it back.
            tailer.singleThreadedCheckReset();
            ahead = new ReadAhead("kvtier journal reader " + dir.getFileName(), this::read);
        }
        final JournalEntry entry = ahead.next();
        if (entry != null) {
            returned++;
        }
        return entry;
    }

    /** Reads the next event, or {@code null} after the end record: on the reading thread. */
    private JournalEntry read() throws JournalException {
        if (ended) {
            return null;
        }
        if (blockLeft > 0) {
            return readEntry();
        }
        if (!readExcerpt()) {
            if (salvaging) {
                return salvagedEnd("");
            }
            throw new JournalException(Problem.TRUNCATED, dir, "ends after " + nextSequence
                + " events with no end record");
        }
        if (!excerpts.crcMatches(excerpt, excerptLength)) {
            final long bad = nextSequence;
            if (!readExcerpt()) {
                if (salvaging) {
                    return salvagedEnd(", and a torn excerpt after them");
                }
                // Nothing follows the damaged excerpt: the tail was cut off inside it (a torn last write).
                throw new JournalException(Problem.TRUNCATED, dir, "ends inside a torn excerpt after " + bad
                    + " events, with no end record");
            }
            throw new JournalException(Problem.CORRUPTED, dir, "checksum mismatch in the excerpt after "
                + bad + " events (sequence " + bad + ")");
        }
        final int kind = excerpt[ExcerptLayout.KIND_OFFSET];
        final boolean blocks = header.formatVersion() >= ExcerptLayout.BLOCKS_VERSION;
        if (kind == ExcerptLayout.KIND_EVENTS && blocks) {
            openBlock();
            return readEntry();
        }
        if (kind == ExcerptLayout.KIND_EVENT && !blocks) {
            return readEvent();
        }
        if (kind == ExcerptLayout.KIND_END) {
            readEnd();
            return null;
        }
        throw new JournalException(Problem.CORRUPTED, dir, "excerpt of kind " + kind + " where sequence "
            + nextSequence + " was expected");
    }

    /** A salvage reached the end of the complete excerpts: the end of the journal it keeps. */
    private JournalEntry salvagedEnd(final String torn) {
        ended = true;
        salvaged = String.format(java.util.Locale.ROOT, "salvaged %,d events in complete checksummed blocks%s; no end "
            + "record and no seal (the writer was killed): whatever the run did after event %,d is lost", nextSequence,
            torn, Math.max(0, nextSequence - 1));
        return null;
    }

    @Override
    public void close() {
        if (ahead != null) {
            ahead.stop();
            tailer.singleThreadedCheckReset();
        }
        try {
            tailer.close();
        } catch (final RuntimeException e) {
            // a damaged queue may fail to close its tailer; the queue below is closed regardless
        }
        closeQuietly(queue);
    }

    private JournalEntry readEvent() throws JournalException {
        final EventCursor c = excerpts.body(excerpt, excerptLength);
        try {
            final long sequence = c.varLong();
            final long timeNs = c.zigZagLong();
            checkOrder(sequence, timeNs);
            final int eventOffset = c.position();
            final int eventLength = excerptLength - ExcerptLayout.CRC_BYTES - eventOffset;
            final CoreEvent event = excerpts.decodeEvent(excerpt, eventOffset, eventLength);
            digest.addEncoded(timeNs, excerpt, eventOffset, eventLength);
            nextSequence++;
            lastTimeNs = timeNs;
            return new JournalEntry(sequence, timeNs, event);
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "event at sequence " + nextSequence
                + " does not decode: " + e.getMessage());
        }
    }

    /** Starts reading an EVENTS excerpt: its first sequence must be the next one, and it holds at least one event. */
    private void openBlock() throws JournalException {
        final EventCursor c = excerpts.body(excerpt, excerptLength);
        try {
            final long first = c.varLong();
            final int count = c.count(ExcerptLayout.BLOCK_EVENTS_MAX);
            if (count < 1) {
                throw new JournalException(Problem.CORRUPTED, dir, "an empty block after " + nextSequence + " events");
            }
            checkOrder(first, lastTimeNs == Long.MIN_VALUE ? 0 : lastTimeNs);
            block.wrap(excerpt, c.position(), c.remaining());
            blockLeft = count;
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "block at sequence " + nextSequence
                + " does not decode: " + e.getMessage());
        }
    }

    /** The next entry of the current block; the last one must end the block exactly. */
    private JournalEntry readEntry() throws JournalException {
        try {
            final long timeNs = (lastTimeNs == Long.MIN_VALUE ? 0 : lastTimeNs) + block.zigZagLong();
            final int length = block.count(EventLayout.MAX_EVENT_BYTES);
            if (length > block.remaining()) {
                throw new EventFormatException("event of " + length + " bytes with " + block.remaining() + " left");
            }
            final int offset = block.position();
            checkOrder(nextSequence, timeNs);
            canonical.reset();
            final CoreEvent event = excerpts.decodeEvent(excerpt, offset, length, keys, canonical);
            block.wrap(excerpt, offset + length, block.remaining() - length);
            blockLeft--;
            if (blockLeft == 0 && block.remaining() != 0) {
                throw new EventFormatException(block.remaining() + " bytes after the block's last event");
            }
            digest.addEncoded(timeNs, canonical.array(), 0, canonical.length());
            final long sequence = nextSequence++;
            lastTimeNs = timeNs;
            return new JournalEntry(sequence, timeNs, event);
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "event at sequence " + nextSequence
                + " does not decode: " + e.getMessage());
        }
    }

    private void checkOrder(final long sequence, final long timeNs) throws JournalException {
        if (sequence > nextSequence) {
            throw new JournalException(Problem.TRUNCATED, dir, "sequence gap: expected " + nextSequence + ", found "
                + sequence);
        }
        if (sequence < nextSequence) {
            throw new JournalException(Problem.CORRUPTED, dir, "sequence " + sequence + " again after "
                + (nextSequence - 1));
        }
        if (timeNs < lastTimeNs) {
            throw new JournalException(Problem.CORRUPTED, dir, "time goes back at sequence " + sequence + ": "
                + timeNs + " ns after " + lastTimeNs + " ns");
        }
    }

    private void readEnd() throws JournalException {
        final EventCursor c = excerpts.body(excerpt, excerptLength);
        final long count;
        final byte[] recorded = new byte[digest.algorithm().bytes()];
        try {
            count = c.varLong();
            for (int i = 0; i < recorded.length; i++) {
                recorded[i] = (byte) c.u8();
            }
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "end record does not decode: " + e.getMessage());
        }
        if (c.remaining() != 0 || count < nextSequence || (seal != null && count != seal.eventCount())) {
            throw new JournalException(Problem.CORRUPTED, dir, "end record counts " + count + " events, seal "
                + (seal == null ? "none" : seal.eventCount()) + ", read " + nextSequence);
        }
        if (count > nextSequence) {
            throw new JournalException(Problem.TRUNCATED, dir, "end record counts " + count + " events, found "
                + nextSequence);
        }
        ended = true;
        if (!Arrays.equals(recorded, HexFormat.of().parseHex(digest.finish()))) {
            throw new JournalException(Problem.CORRUPTED, dir, "event digest does not match the end record");
        }
        if (readExcerpt()) {
            throw new JournalException(Problem.CORRUPTED, dir, "an excerpt follows the end record");
        }
    }

    private JournalHeader readHeader() throws JournalException {
        if (!readExcerpt()) {
            throw new JournalException(Problem.TRUNCATED, dir, "the queue holds no header");
        }
        final int version = ExcerptCodec.headerVersion(excerpt, excerptLength);
        if (version < 0) {
            throw new JournalException(Problem.CORRUPTED, dir, "the first excerpt is not a kvtier journal header");
        }
        if (version > ExcerptLayout.FORMAT_VERSION) {
            throw new JournalException(Problem.NEWER_VERSION, dir, "format version " + version
                + ", this reader knows up to " + ExcerptLayout.FORMAT_VERSION);
        }
        if (version < 1 || !excerpts.crcMatches(excerpt, excerptLength)) {
            throw new JournalException(Problem.CORRUPTED, dir, "header checksum mismatch");
        }
        try {
            return excerpts.decodeHeader(excerpt, excerptLength, version);
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir, "header does not decode: " + e.getMessage());
        }
    }

    private boolean readExcerpt() throws JournalException {
        try (DocumentContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return false;
            }
            final Bytes<?> bytes = context.wire().bytes();
            final long length = bytes.readRemaining();
            if (length < ExcerptLayout.BODY_OFFSET + ExcerptLayout.CRC_BYTES
                || length > ExcerptLayout.EXCERPT_BYTES_MAX) {
                throw new JournalException(Problem.CORRUPTED, dir, "excerpt of " + length + " bytes after "
                    + nextSequence + " events");
            }
            if (length > excerpt.length) {
                excerpt = new byte[(int) Math.max(length, Math.min(2L * excerpt.length,
                    ExcerptLayout.EXCERPT_BYTES_MAX))];
            }
            excerptLength = ExcerptLayout.checkExcerptLength(length);
            bytes.read(excerpt, 0, excerptLength);
            return true;
        } catch (final RuntimeException | InternalError e) {
            throw new JournalException(Problem.CORRUPTED, dir, "the queue is unreadable after " + nextSequence
                + " events: " + brief(e));
        }
    }

    /**
     * What Chronicle said, in a few words for a user: the first line of its message without the names of exception
     * classes, cut at 160 characters ("Chronicle Queue could not read it" when it said nothing more).
     */
    static String brief(final Throwable e) {
        final String message = e.getMessage() == null ? "" : e.getMessage().strip().lines().findFirst().orElse("");
        final String text = message.replaceAll("([A-Za-z_$][\\w$]*\\.)*[A-Za-z_$][\\w$]*(Exception|Error)(: )?", "")
            .strip();
        final String said = text.isEmpty() || text.matches("\\d+") ? "Chronicle Queue could not read it"
            : "Chronicle Queue says: " + text;
        return said.length() > 160 ? said.substring(0, 157) + "..." : said;
    }

    private static void closeQuietly(final SingleChronicleQueue queue) {
        try {
            queue.close();
        } catch (final RuntimeException e) {
            // the queue was unreadable already; the caller reports that
        }
    }
}
