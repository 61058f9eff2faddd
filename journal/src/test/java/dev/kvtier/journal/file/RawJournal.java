package dev.kvtier.journal.file;

import dev.kvtier.journal.codec.EventBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/** Writes a sealed journal from raw excerpts, to build bad journals a {@link JournalWriter} never writes. */
final class RawJournal {
    private RawJournal() {}

    /** A sealed journal of {@code header}, the given event excerpts, and an end record counting {@code count}. */
    static Path write(final Path dir, final JournalHeader header, final List<byte[]> events,
                      final long count) throws Exception {
        return write(dir, header, events, count, null);
    }

    /** As above, with {@code digest} (hex) in the end record ({@code null}: zeros). */
    static Path write(final Path dir, final JournalHeader header, final List<byte[]> events, final long count,
                      final String digest) throws Exception {
        Files.createDirectories(dir);
        final ExcerptCodec codec = new ExcerptCodec();
        final EventBuffer buffer = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
        try (SingleChronicleQueue queue = ChronicleSupport.open(dir, false);
             ExcerptAppender appender = queue.createAppender()) {
            codec.header(header, buffer);
            append(appender, buffer.toByteArray());
            for (final byte[] event : events) {
                append(appender, event);
            }
            codec.end(count, digest == null ? new byte[ExcerptLayout.digestAlgorithm(header.formatVersion()).bytes()]
                : java.util.HexFormat.of().parseHex(digest), buffer);
            append(appender, buffer.toByteArray());
        }
        new JournalSeal(count, JournalSeal.queueFiles(dir)).write(dir);
        return dir;
    }

    /** {@code excerpt} with its CRC recomputed. */
    static byte[] recrc(final byte[] excerpt) {
        final CRC32C crc = new CRC32C();
        crc.update(excerpt, 0, excerpt.length - 4);
        final int value = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            excerpt[excerpt.length - 4 + i] = (byte) (value >>> (8 * i));
        }
        return excerpt;
    }

    private static void append(final ExcerptAppender appender, final byte[] bytes) {
        try (DocumentContext context = appender.writingDocument()) {
            context.wire().bytes().write(bytes, 0, bytes.length);
        }
    }
}
