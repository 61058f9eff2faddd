package dev.kvtier.realio.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A block device that holds a partition table or a file system is refused even with plain {@code --force}; one of
 * zeros counts as empty; one of unknown bytes needs {@code --force}. The decision is made on the bytes read, so it is
 * tested on bytes (a test cannot make a block device without root).
 */
class SignaturesTest {
    private static final Holder HOLDER = Holder.current("kvtier run t --mode real --device /dev/x");

    private static byte[] with(final int offset, final byte... magic) {
        final byte[] b = new byte[Signatures.LEADING_BYTES];
        System.arraycopy(magic, 0, b, offset, magic.length);
        return b;
    }

    private static byte[] ascii(final int offset, final String text) {
        return with(offset, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Optional<String> volume(final byte[] b) {
        return Signatures.find(b, b.length, true);
    }

    @Test
    void shouldRecognisePartitionTablesFileSystemsAndVolumes() {
        assertEquals("a GPT partition table", volume(ascii(512, "EFI PART")).orElseThrow());
        assertEquals("an ext2/3/4 file system", volume(with(1080, (byte) 0x53, (byte) 0xEF)).orElseThrow());
        assertEquals("an XFS file system", volume(ascii(0, "XFSB")).orElseThrow());
        assertEquals("a btrfs file system", volume(ascii(65600, "_BHRfS_M")).orElseThrow());
        assertEquals("an LVM physical volume", volume(ascii(512, "LABELONE")).orElseThrow());
        assertEquals("Linux swap", volume(ascii(4086, "SWAPSPACE2")).orElseThrow());
        assertEquals("a DOS/MBR partition table or boot sector", volume(with(510, (byte) 0x55, (byte) 0xAA))
            .orElseThrow());
        assertTrue(volume(new byte[Signatures.LEADING_BYTES]).isEmpty());
        assertTrue(volume(ascii(257, "ustar")).isEmpty(), "an archive is no volume");
        assertEquals("a tar archive", Signatures.find(ascii(257, "ustar"), 4096, false).orElseThrow());
    }

    private static Claim.Request request(final boolean recover, final Force force) {
        return new Claim.Request(Path.of("/dev/x"), "--device", FileKind.DATA, recover, force, 0, HOLDER);
    }

    private static Contents block(final byte[] leading) {
        return new Contents(1L << 40, leading, leading.length);
    }

    @Test
    void shouldRefuseABlockDeviceWithAFileSystemEvenWithForceButNotWithForceWipe() throws ClaimRefused {
        final Contents ext4 = block(with(1080, (byte) 0x53, (byte) 0xEF));
        for (final Force force : new Force[] {Force.NONE, Force.FOREIGN}) {
            final String m = assertThrows(ClaimRefused.class, () -> ClaimRules.decide(request(false, force), true, ext4,
                9)).getMessage();
            assertTrue(m.contains("an ext2/3/4 file system") && m.contains("--force-wipe"), m);
        }
        assertEquals(FileKind.DATA, ClaimRules.decide(request(false, Force.WIPE), true, ext4, 9).kind());
        assertThrows(ClaimRefused.class, () -> ClaimRules.decide(request(true, Force.WIPE), true, ext4, 9));
    }

    @Test
    void shouldTakeABlockDeviceOfZerosAndNeedForceForUnknownBytes() throws ClaimRefused {
        assertEquals(9, ClaimRules.decide(request(false, Force.NONE), true, block(new byte[Contents.LEADING_BYTES]), 9)
            .creationId(), "zeros: an empty device");
        final byte[] noise = new byte[Contents.LEADING_BYTES];
        noise[12345] = 1;
        final String m = assertThrows(ClaimRefused.class, () -> ClaimRules.decide(request(false, Force.NONE), true,
            block(noise), 9)).getMessage();
        assertTrue(m.contains("a block device with") && m.contains("--force"), m);
        assertEquals(FileKind.DATA, ClaimRules.decide(request(false, Force.FOREIGN), true, block(noise), 9).kind());
    }

    @Test
    void shouldTakeAKvtierDeviceOfTheRightKindWithoutForce() throws ClaimRefused {
        final byte[] ours = java.util.Arrays.copyOf(FileHeader.claimed(FileKind.DATA, 77, 0, 5, HOLDER).encode(),
            Contents.LEADING_BYTES);
        assertEquals(77, ClaimRules.decide(request(false, Force.NONE), true, block(ours), 9).creationId());
        assertEquals(77, ClaimRules.decide(request(true, Force.NONE), true, block(ours), 9).creationId());
    }
}
