package dev.kvtier.realio.files;

/**
 * Descriptor of the header kvtier writes in the first {@link #BYTES} of every file or block device it writes with
 * O_DIRECT (STYLE rule 15). Little-endian; texts are a {@code u16} byte length and UTF-8 bytes. The devices address
 * their data after it ({@link #BYTES} is their base offset).
 *
 * <pre>
 *   0        8         12     16           24       32          40          48          56          120
 *   +--------+---------+------+------------+--------+-----------+-----------+-----------+-----------+-----------+
 *   | magic  | version | kind | creationId | pairId | createdMs | holderPid | holderMs  | host text | command   |
 *   |KVTIERFH|   u32   | u32  |    u64     |  u64   |    u64    |    u64    |    u64    | u16 + 62  | u16 + 900 |
 *   +--------+---------+------+------------+--------+-----------+-----------+-----------+-----------+-----------+
 *   1024: a note for people (ASCII, NUL padded, up to 1024 bytes): what the file is and which command made it
 *   4092: crc32c of bytes [0, 4092)
 * </pre>
 *
 * {@code creationId} is drawn when kvtier first writes the file and kept by later runs; an index's {@code pairId} is
 * the creation id of the L2 data file it indexes (0 for other kinds). The holder fields name the last run that
 * claimed the file; the lock ({@code flock}), not the header, says whether that run still holds it.
 */
public final class HeaderLayout {
    /** Bytes of the header, and the base offset of the data behind it. */
    public static final int BYTES = 4096;
    /** "KVTIERFH" read as a little-endian long. */
    public static final long MAGIC = 0x484652454954564BL;
    /** The format version this code writes. */
    public static final int VERSION = 1;
    public static final int VERSION_OFFSET = 8;
    public static final int KIND_OFFSET = 12;
    public static final int CREATION_ID_OFFSET = 16;
    public static final int PAIR_ID_OFFSET = 24;
    public static final int CREATED_MS_OFFSET = 32;
    public static final int HOLDER_PID_OFFSET = 40;
    public static final int HOLDER_MS_OFFSET = 48;
    public static final int HOST_OFFSET = 56;
    public static final int COMMAND_OFFSET = 120;
    public static final int NOTE_OFFSET = 1024;
    public static final int NOTE_BYTES_MAX = 1024;
    public static final int CRC_OFFSET = BYTES - 4;

    private HeaderLayout() {}

    /** True when {@code bytes} (at least 8 of them) start with the magic: a kvtier header, intact or not. */
    public static boolean hasMagic(final byte[] bytes, final int length) {
        if (length < 8) {
            return false;
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (bytes[i] & 0xFF);
        }
        return v == MAGIC;
    }

    /** Checks that {@code length} bytes can hold a header; returns it. */
    public static int checkLength(final int length) {
        if (length < BYTES) {
            throw new IllegalArgumentException("a header needs " + BYTES + " bytes, got " + length);
        }
        return length;
    }
}
