package dev.kvtier.realio.files;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The header of a file kvtier writes ({@link HeaderLayout}): what it is, which L2 file an index belongs to, and who
 * claimed it last.
 *
 * @param version    the format version it was written with
 * @param kind       what the file is for
 * @param creationId drawn when kvtier first wrote the file, kept by later runs
 * @param pairId     for an index, the creation id of its L2 data file; 0 otherwise
 * @param createdMs  when kvtier first wrote it (Unix epoch milliseconds)
 * @param holder     the run that claimed it last
 */
public record FileHeader(int version, FileKind kind, long creationId, long pairId, long createdMs, Holder holder) {
    public FileHeader {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(holder, "holder");
        if (version < 1) {
            throw new IllegalArgumentException("header version must be at least 1, got " + version);
        }
    }

    /** What decoding the first bytes of a file found. */
    public sealed interface Decoded permits Intact, Newer, Damaged, Absent {}

    /** An intact header this version reads. */
    public record Intact(FileHeader header) implements Decoded {}

    /** A kvtier header of a newer format version (or a kind this version does not know). */
    public record Newer(int version) implements Decoded {}

    /** The magic, but a checksum or field that does not hold. */
    public record Damaged(String why) implements Decoded {}

    /** No kvtier header: another program's bytes, or zeros. */
    public record Absent() implements Decoded {}

    /** A header this process writes: a fresh file's, or {@code previous}'s ids with this holder. */
    public static FileHeader claimed(final FileKind kind, final long creationId, final long pairId,
                                     final long createdMs, final Holder holder) {
        return new FileHeader(HeaderLayout.VERSION, kind, creationId, pairId, createdMs, holder);
    }

    /** The {@link HeaderLayout#BYTES} bytes of this header. */
    public byte[] encode() {
        final byte[] out = new byte[HeaderLayout.BYTES];
        final ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, HeaderLayout.MAGIC).putInt(HeaderLayout.VERSION_OFFSET, version)
            .putInt(HeaderLayout.KIND_OFFSET, kind.code())
            .putLong(HeaderLayout.CREATION_ID_OFFSET, creationId).putLong(HeaderLayout.PAIR_ID_OFFSET, pairId)
            .putLong(HeaderLayout.CREATED_MS_OFFSET, createdMs).putLong(HeaderLayout.HOLDER_PID_OFFSET, holder.pid())
            .putLong(HeaderLayout.HOLDER_MS_OFFSET, holder.sinceMs());
        putText(b, HeaderLayout.HOST_OFFSET, holder.host());
        putText(b, HeaderLayout.COMMAND_OFFSET, holder.command());
        final byte[] note = note().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(note, 0, out, HeaderLayout.NOTE_OFFSET, Math.min(note.length, HeaderLayout.NOTE_BYTES_MAX));
        b.putInt(HeaderLayout.CRC_OFFSET, crc(out));
        return out;
    }

    /** Decodes the first {@code length} bytes of a file. */
    public static Decoded decode(final byte[] bytes, final int length) {
        if (!HeaderLayout.hasMagic(bytes, length)) {
            return new Absent();
        }
        if (length < HeaderLayout.BYTES) {
            return new Damaged("the header is cut short at " + length + " B");
        }
        final ByteBuffer b = ByteBuffer.wrap(bytes, 0, HeaderLayout.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        final int version = b.getInt(HeaderLayout.VERSION_OFFSET);
        if (version > HeaderLayout.VERSION) {
            return new Newer(version);
        }
        if (b.getInt(HeaderLayout.CRC_OFFSET) != crc(bytes)) {
            return new Damaged("its header checksum does not match");
        }
        final FileKind kind = FileKind.ofCode(b.getInt(HeaderLayout.KIND_OFFSET));
        if (version < 1 || kind == null) {
            return kind == null ? new Newer(version) : new Damaged("header version " + version);
        }
        try {
            final Holder holder = new Holder(b.getLong(HeaderLayout.HOLDER_PID_OFFSET),
                getText(bytes, HeaderLayout.HOST_OFFSET,
                    Holder.HOST_BYTES_MAX),
                getText(bytes, HeaderLayout.COMMAND_OFFSET, Holder.COMMAND_BYTES_MAX),
                b.getLong(HeaderLayout.HOLDER_MS_OFFSET));
            return new Intact(new FileHeader(version, kind, b.getLong(HeaderLayout.CREATION_ID_OFFSET),
                b.getLong(HeaderLayout.PAIR_ID_OFFSET),
                b.getLong(HeaderLayout.CREATED_MS_OFFSET), holder));
        } catch (final IllegalArgumentException e) {
            return new Damaged(e.getMessage());
        }
    }

    private String note() {
        return "This is a kvtier " + kind.label() + " (header format " + version + "), first written "
            + Instant.ofEpochMilli(createdMs) + ", last claimed by: " + holder.command()
            + ". kvtier writes it with O_DIRECT; its data begins at byte " + HeaderLayout.BYTES + ".\n";
    }

    private static void putText(final ByteBuffer b, final int offset, final String text) {
        final byte[] t = text.getBytes(StandardCharsets.UTF_8);
        b.putShort(offset, (short) t.length);
        b.put(offset + 2, t);
    }

    private static String getText(final byte[] bytes, final int offset, final int maxBytes) {
        final int n = (bytes[offset] & 0xFF) | (bytes[offset + 1] & 0xFF) << 8;
        if (n > maxBytes) {
            throw new IllegalArgumentException("a header text of " + n + " B (at most " + maxBytes + ")");
        }
        return new String(bytes, offset + 2, n, StandardCharsets.UTF_8);
    }

    private static int crc(final byte[] bytes) {
        final CRC32C c = new CRC32C();
        c.update(bytes, 0, HeaderLayout.CRC_OFFSET);
        return (int) c.getValue();
    }
}
