package dev.kvtier.realio.files;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Recognises what the first bytes of a block device (or a file) hold, as {@code blkid} and {@code wipefs} do for the
 * common cases: a partition table (MBR, GPT), a file system (ext2/3/4, XFS, btrfs, F2FS, FAT, NTFS, ISO 9660,
 * squashfs), a volume (LVM, LUKS, Linux RAID) or swap; and, for messages about files, a few archive formats. A block
 * device that holds one of the first kinds is refused even with plain {@code --force}: destroying a file system takes
 * {@code --force-wipe}.
 */
public final class Signatures {
    /** Bytes to read to see every signature below (btrfs's is at 64 KiB + 64). */
    public static final int LEADING_BYTES = 128 << 10;

    /** A magic value at an offset, with what it means and whether it makes a block device off limits. */
    // Constants built once and never compared, hashed or handed out, so an array component is safe.
    @SuppressWarnings("ArrayRecordComponent")
    private record Magic(int offset, byte[] bytes, String what, boolean volume) {
        static Magic ascii(final int offset, final String text, final String what, final boolean volume) {
            return new Magic(offset, text.getBytes(StandardCharsets.ISO_8859_1), what, volume);
        }

        static Magic raw(final int offset, final String what, final boolean volume, final int... values) {
            final byte[] b = new byte[values.length];
            for (int i = 0; i < values.length; i++) {
                b[i] = (byte) values[i];
            }
            return new Magic(offset, b, what, volume);
        }

        boolean matches(final byte[] data, final int length) {
            if (offset + bytes.length > length) {
                return false;
            }
            for (int i = 0; i < bytes.length; i++) {
                if (data[offset + i] != bytes[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Most specific first: a GPT disk also has a protective MBR, a FAT or NTFS volume a boot signature. */
    private static final List<Magic> MAGICS = List.of(
        Magic.ascii(512, "EFI PART", "a GPT partition table", true),
        Magic.ascii(4096, "EFI PART", "a GPT partition table", true),
        Magic.raw(1080, "an ext2/3/4 file system", true, 0x53, 0xEF),
        Magic.ascii(0, "XFSB", "an XFS file system", true),
        Magic.ascii(65600, "_BHRfS_M", "a btrfs file system", true),
        Magic.raw(1024, "an F2FS file system", true, 0x10, 0x20, 0xF5, 0xF2),
        Magic.ascii(3, "NTFS    ", "an NTFS file system", true),
        Magic.ascii(82, "FAT32   ", "a FAT32 file system", true),
        Magic.ascii(54, "FAT1", "a FAT file system", true),
        Magic.ascii(32769, "CD001", "an ISO 9660 file system", true),
        Magic.ascii(0, "hsqs", "a squashfs file system", true),
        Magic.ascii(512, "LABELONE", "an LVM physical volume", true),
        Magic.ascii(0, "LUKS\u00ba\u00be", "a LUKS encrypted volume", true),
        Magic.raw(4096, "a Linux RAID member", true, 0xFC, 0x4E, 0x2B, 0xA9),
        Magic.raw(0, "a Linux RAID member", true, 0xFC, 0x4E, 0x2B, 0xA9),
        Magic.ascii(4086, "SWAPSPACE2", "Linux swap", true),
        Magic.ascii(4086, "SWAP-SPACE", "Linux swap", true),
        Magic.raw(510, "a DOS/MBR partition table or boot sector", true, 0x55, 0xAA),
        Magic.ascii(257, "ustar", "a tar archive", false),
        Magic.ascii(0, "PK\u0003\u0004", "a zip archive", false),
        Magic.raw(0, "a gzip file", false, 0x1F, 0x8B),
        Magic.ascii(0, "SQLite format 3", "an SQLite database", false));

    private Signatures() {}

    /**
     * What the first {@code length} bytes of {@code data} hold, or empty when nothing here is recognised.
     *
     * @param volumesOnly only partition tables, file systems, volumes and swap (what makes a block device off limits)
     */
    public static Optional<String> find(final byte[] data, final int length, final boolean volumesOnly) {
        for (final Magic m : MAGICS) {
            if ((m.volume() || !volumesOnly) && m.matches(data, length)) {
                return Optional.of(m.what());
            }
        }
        return Optional.empty();
    }

    /** True when the first {@code length} bytes are all zero. */
    public static boolean allZero(final byte[] data, final int length) {
        for (int i = 0; i < length; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
