package dev.kvtier.journal.file;

/**
 * Descriptor of {@code kvtier-journal.seal}, the small file a journal writer writes last, after the queue is closed
 * (STYLE rule 15). The reader checks it before it lets Chronicle map a file: Chronicle maps queue files into memory,
 * and reading a mapped file that was cut short faults the JVM instead of failing cleanly, so sizes are checked first.
 *
 * <pre>
 *   +--------+-------------+------------------+------------+---------------------------+--------+
 *   | "KVTS" | version:u16 | eventCount:varint| n:varint   | (name:text size:varint)*n | crc32c |
 *   +--------+-------------+------------------+------------+---------------------------+--------+
 *   0        4             6
 * </pre>
 *
 * Files are listed in name order; only queue files ({@code .cq4}, {@code .cq4t}) are listed and checked, so other
 * files beside a journal (a run report) are allowed.
 */
public final class SealLayout {
    /** The seal's file name inside the journal directory. */
    public static final String FILE_NAME = "kvtier-journal.seal";
    /** "KVTS" read as a little-endian int. */
    public static final int MAGIC = 'K' | 'V' << 8 | 'T' << 16 | 'S' << 24;
    /** Offset of the version field. */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the event count. */
    public static final int COUNT_OFFSET = 6;
    /** The most files a seal lists. */
    public static final int FILES_MAX = 16;
    /** The largest seal file, in bytes. */
    public static final int SEAL_BYTES_MAX = 64 << 10;
    /** The longest file name. */
    public static final int NAME_BYTES_MAX = 255;

    private SealLayout() {}

    /** True for a file name the seal covers (a Chronicle queue or table file). */
    public static boolean isQueueFile(final String name) {
        return name.endsWith(".cq4") || name.endsWith(".cq4t");
    }

    /** Checks a seal file's size; returns it. */
    public static int checkSealLength(final long lengthBytes) {
        if (lengthBytes < COUNT_OFFSET + 1 + 1 + 4 || lengthBytes > SEAL_BYTES_MAX) {
            throw new IllegalArgumentException("seal of " + lengthBytes + " bytes");
        }
        return (int) lengthBytes;
    }
}
