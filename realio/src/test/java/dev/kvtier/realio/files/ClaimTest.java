package dev.kvtier.realio.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.testkit.Scratch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Taking a path for a run: what is taken, what is refused (bytes untouched), and the lock. */
class ClaimTest {
    private final Scratch scratch = new Scratch();
    private final LibcKernel kernel = LibcKernel.create();
    private final Holder holder = Holder.current("kvtier run test --device x");

    @AfterEach
    void tearDown() {
        scratch.close();
    }

    private Claim.Request request(final Path path, final FileKind kind, final boolean recover, final Force force,
                                  final long pairId) {
        return new Claim.Request(path, "--device", kind, recover, force, pairId, holder);
    }

    private Claim take(final Path path, final FileKind kind) throws ClaimRefused {
        return Claim.take(kernel, request(path, kind, false, Force.NONE, 0));
    }

    private String refused(final Claim.Request r) {
        final String m = assertThrows(ClaimRefused.class, () -> Claim.take(kernel, r).close()).getMessage();
        assertEquals(1, m.lines().count(), m);
        return m;
    }

    private static byte[] random(final int n) {
        final byte[] b = new byte[n];
        new java.util.Random(n).nextBytes(b);
        return b;
    }

    @Test
    void shouldCreateAnAbsentFileWithItsHeader() throws Exception {
        final Path p = scratch.file("new.bin");
        try (Claim c = take(p, FileKind.DATA)) {
            assertTrue(c.created());
            assertEquals(HeaderLayout.BYTES, c.baseOffset());
            final FileHeader.Decoded d = FileHeader.decode(Files.readAllBytes(p), (int) Files.size(p));
            final FileHeader h = assertInstanceOf(FileHeader.Intact.class, d).header();
            assertEquals(FileKind.DATA, h.kind());
            assertEquals(c.header().creationId(), h.creationId());
            assertEquals(holder.command(), h.holder().command());
        }
    }

    @Test
    void shouldRefuseAFileOfAnotherProgramAndLeaveItsBytes() throws Exception {
        final Path p = scratch.file("existing.tar");
        final byte[] bytes = random(1 << 20);
        Files.write(p, bytes);
        final String m = refused(request(p, FileKind.DATA, false, Force.NONE, 0));
        assertTrue(m.contains("existing.tar") && m.contains("--force") && m.contains("1048576 B"), m);
        assertArrayEquals(bytes, Files.readAllBytes(p));
        final Path two = scratch.file("two.bin");
        Files.write(two, new byte[] {1, 2});
        refused(request(two, FileKind.DATA, false, Force.NONE, 0));
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(two));
    }

    @Test
    void shouldNameWhatAFileHoldsWhenItKnowsTheFormat() throws Exception {
        final Path p = scratch.file("a.tar");
        final byte[] tar = new byte[4096];
        System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
        Files.write(p, tar);
        assertTrue(refused(request(p, FileKind.SCRATCH, false, Force.NONE, 0)).contains("a tar archive"));
    }

    @Test
    void shouldNameTheTargetOfALink() throws Exception {
        final Path target = scratch.file("existing.tar");
        Files.write(target, random(8192));
        final Path link = Files.createSymbolicLink(scratch.file("l2.bin"), target);
        assertTrue(refused(request(link, FileKind.DATA, false, Force.NONE, 0)).contains("a link to"));
        final Path dangling = Files.createSymbolicLink(scratch.file("dangling.bin"), scratch.file("nowhere"));
        assertTrue(refused(request(dangling, FileKind.DATA, false, Force.NONE, 0)).contains("dangling"));
        assertFalse(Files.exists(scratch.file("nowhere")), "nothing is created through a dangling link");
    }

    @Test
    void shouldWriteOverAForeignFileOnlyWhenForced() throws Exception {
        final Path p = scratch.file("existing.bin");
        Files.write(p, random(8192));
        try (Claim c = Claim.take(kernel, request(p, FileKind.DATA, false, Force.FOREIGN, 0))) {
            assertFalse(c.created());
            assertEquals(FileKind.DATA, c.header().kind());
        }
    }

    @Test
    void shouldTakeAnEmptyFileAndItsOwnFileKeepingTheCreationId() throws Exception {
        final Path p = scratch.file("empty.bin");
        Files.createFile(p);
        final long id;
        try (Claim c = take(p, FileKind.DATA)) {
            assertFalse(c.created());
            id = c.header().creationId();
        }
        try (Claim again = take(p, FileKind.DATA)) {
            assertEquals(id, again.header().creationId(), "a later run keeps the file's identity");
        }
    }

    @Test
    void shouldRefuseAKvtierFileOfAnotherKind() throws Exception {
        final Path p = scratch.file("l2.bin.index");
        take(p, FileKind.INDEX).close();
        final byte[] before = Files.readAllBytes(p);
        final String m = refused(request(p, FileKind.DATA, false, Force.NONE, 0));
        assertTrue(m.contains("is a kvtier index file, not an L2 data file"), m);
        assertArrayEquals(before, Files.readAllBytes(p));
    }

    @Test
    void shouldRefuseTheIndexOfAnotherDataFileUnlessForcedAndAlwaysWhenRecovering() throws Exception {
        final Path p = scratch.file("shared.index");
        Claim.take(kernel, request(p, FileKind.INDEX, false, Force.NONE, 111)).close();
        assertTrue(refused(request(p, FileKind.INDEX, false, Force.NONE, 222)).contains("another L2 data file"));
        assertTrue(refused(request(p, FileKind.INDEX, true, Force.FOREIGN, 222)).contains("another L2 data file"));
        Claim.take(kernel, request(p, FileKind.INDEX, true, Force.NONE, 111)).close();
        Claim.take(kernel, request(p, FileKind.INDEX, false, Force.FOREIGN, 222)).close();
    }

    @Test
    void shouldRecoverOnlyFromItsOwnFile() throws Exception {
        final Path absent = scratch.file("absent.index");
        assertTrue(refused(request(absent, FileKind.INDEX, true, Force.FOREIGN, 1)).contains("does not exist"));
        assertFalse(Files.exists(absent));
        final Path foreign = scratch.file("foreign.index");
        Files.write(foreign, random(4096));
        assertTrue(refused(request(foreign, FileKind.INDEX, true, Force.FOREIGN, 1)).contains("nothing to recover"));
        final Path empty = Files.createFile(scratch.file("empty.index"));
        assertTrue(refused(request(empty, FileKind.INDEX, true, Force.NONE, 1)).contains("empty"));
    }

    @Test
    void shouldRefuseADamagedOrNewerHeader() throws Exception {
        final Path p = scratch.file("damaged.bin");
        take(p, FileKind.DATA).close();
        final byte[] bytes = Files.readAllBytes(p);
        bytes[HeaderLayout.CREATION_ID_OFFSET] ^= 1;
        Files.write(p, bytes);
        assertTrue(refused(request(p, FileKind.DATA, false, Force.NONE, 0)).contains("damaged"));
        bytes[HeaderLayout.VERSION_OFFSET] = 9;
        Files.write(p, bytes);
        assertTrue(refused(request(p, FileKind.DATA, false, Force.NONE, 0)).contains("newer kvtier"));
        assertArrayEquals(bytes, Files.readAllBytes(p));
    }

    @Test
    void shouldRefuseASecondClaimWhileTheFirstHoldsTheLockNamingTheHolder() throws Exception {
        final Path p = scratch.file("l2.bin");
        try (Claim first = take(p, FileKind.DATA)) {
            final String m = refused(request(p, FileKind.DATA, false, Force.WIPE, 0));
            assertTrue(m.contains("in use by pid " + ProcessHandle.current().pid()), m);
            assertTrue(m.contains("kvtier run test --device x"), m);
            assertEquals(first.header(), ((FileHeader.Intact) FileHeader.decode(Files.readAllBytes(p), 4096))
                .header(), "the second claim wrote nothing");
        }
        take(p, FileKind.DATA).close();
    }

    @Test
    void shouldRefuseDirectoriesSpecialFilesAndMissingParents() throws IOException {
        assertTrue(refused(request(scratch.file("."), FileKind.DATA, false, Force.WIPE, 0)).contains("directory"));
        assertTrue(refused(request(Path.of("/dev/null"), FileKind.DATA, false, Force.WIPE, 0)).contains(
            "character device"));
        assertTrue(refused(request(scratch.file("no/such/dir/l2.bin"), FileKind.DATA, false, Force.NONE, 0))
            .contains("does not exist"));
    }

    @Test
    void shouldRemoveOnAbandonOnlyAFileItCreated() throws Exception {
        final Path created = scratch.file("created.bin");
        take(created, FileKind.SCRATCH).abandon();
        assertFalse(Files.exists(created));
        final Path existing = Files.createFile(scratch.file("existing.bin"));
        take(existing, FileKind.SCRATCH).abandon();
        assertTrue(Files.exists(existing));
    }

    @Test
    void shouldKeepTheHeaderWhenItDiscardsTheData() throws Exception {
        final Path p = scratch.file("index.bin");
        try (Claim c = take(p, FileKind.INDEX)) {
            Files.write(p, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
            c.discardData();
        }
        assertEquals(HeaderLayout.BYTES, Files.size(p));
        assertInstanceOf(FileHeader.Intact.class, FileHeader.decode(Files.readAllBytes(p), HeaderLayout.BYTES));
    }

    @Test
    void shouldRoundTripAHeaderAndRefuseNonsense() {
        final FileHeader h = FileHeader.claimed(FileKind.INDEX, 42, 7, 1000, holder);
        final byte[] bytes = h.encode();
        assertEquals(h, ((FileHeader.Intact) FileHeader.decode(bytes, bytes.length)).header());
        assertInstanceOf(FileHeader.Absent.class, FileHeader.decode(new byte[4096], 4096));
        assertInstanceOf(FileHeader.Damaged.class, FileHeader.decode(bytes, 100));
        final byte[] flipped = Arrays.copyOf(bytes, bytes.length);
        flipped[HeaderLayout.NOTE_OFFSET] ^= 1;
        assertInstanceOf(FileHeader.Damaged.class, FileHeader.decode(flipped, flipped.length));
        assertNotEquals(0,
            new String(bytes, HeaderLayout.NOTE_OFFSET, 200, StandardCharsets.US_ASCII).indexOf("kvtier index file"));
    }
}
