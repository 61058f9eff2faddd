package dev.kvtier.realio.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.AdditionalAnswers.delegatesTo;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.intThat;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.files.FileHeader;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import dev.kvtier.realio.uring.UringConstants;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where io_uring and file calls fail in the field, through a Mockito stand-in for the {@link Kernel} port that calls
 * the real kernel except for the one call a test makes fail: the real run's devices either fall back (with one
 * notice) or refuse with one line, and a file the run created is never left half-made.
 */
class KernelFailureTest {
    private static final long SLOT = 64 << 10;
    private static final CoreConfig CONFIG = CoreConfig.builder(SLOT).l2Bytes(64 * SLOT).l1Bytes(16 * SLOT)
        .stagingBatchBytes(4 * SLOT).build();
    private static final long MEMORY_BYTES = 64L << 20;

    private final Scratch scratch = new Scratch();
    private final Kernel kernel = mock(Kernel.class, delegatesTo(LibcKernel.create()));
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @AfterEach
    void tearDown() {
        scratch.close();
    }

    private Path data() {
        return scratch.file("l2.bin");
    }

    private RealTarget target(final IoChoice io) {
        return new RealTarget(data(), null, false, io, 60_000_000_000L, Force.NONE, Holder.current("kvtier test"));
    }

    private RealDevices open(final IoChoice io) throws BadDevice {
        return RealDevices.open(kernel, CONFIG, MEMORY_BYTES, target(io), new PrintStream(log, true,
            StandardCharsets.UTF_8));
    }

    /** Opening failed with one line naming {@code what}, and left neither file behind. */
    private void assertRefusedLeavingNothing(final IoChoice io, final String... what) {
        final String m = assertThrows(BadDevice.class, () -> open(io).close()).getMessage();
        assertEquals(1, m.lines().count(), m);
        for (final String w : what) {
            assertTrue(m.contains(w), m);
        }
        assertFalse(Files.exists(data()), "the data file the run created is removed");
        assertFalse(Files.exists(scratch.file("l2.bin.index")), "the index file the run created is removed");
    }

    private static boolean direct(final int flags) {
        return (flags & UringConstants.O_DIRECT) != 0;
    }

    @Test
    void shouldFallBackToTheFileChannelDeviceWhenIoUringSetupIsDenied() throws BadDevice {
        for (final int errno : new int[] {Errno.EPERM, Errno.ENOSYS}) {
            doReturn(-errno).when(kernel).ioUringSetup(anyInt(), anyLong());
            assertRefusedLeavingNothing(IoChoice.URING, Errno.name(errno), "io_uring");
            try (RealDevices d = open(IoChoice.AUTO)) {
                assertEquals("filechannel", d.devices().data().kind());
                assertEquals("filechannel", d.devices().index().kind());
            }
            final String notices = log.toString(StandardCharsets.UTF_8);
            assertTrue(notices.contains("FileChannelDevice"), notices);
            assertTrue(data().toFile().delete() && scratch.file("l2.bin.index").toFile().delete());
        }
    }

    @Test
    void shouldRefuseWithOneLineWhenTheFileSystemRefusesDirectIo() {
        doReturn(-Errno.EINVAL).when(kernel).open(anyString(), intThat(KernelFailureTest::direct), anyInt());
        Uring.assumeAvailable();
        assertRefusedLeavingNothing(IoChoice.URING, "O_DIRECT", "EINVAL");
    }

    @Test
    void shouldRefuseWithOneLineWhenTheDiskIsFull() {
        Uring.assumeAvailable();
        doReturn(-Errno.ENOSPC).when(kernel).fallocate(anyInt(), anyInt(), anyLong(), anyLong());
        assertRefusedLeavingNothing(IoChoice.URING, "pre-size", "ENOSPC");
    }

    @Test
    void shouldWorkWithoutFixedBuffersOrAFixedFileWhenRegistrationRunsOutOfMemory() throws BadDevice {
        Uring.assumeAvailable();
        doReturn(-Errno.ENOMEM).when(kernel).ioUringRegister(anyInt(), eq(UringConstants.REGISTER_BUFFERS),
            anyLong(), anyInt());
        doReturn(-Errno.ENOMEM).when(kernel).ioUringRegister(anyInt(), eq(UringConstants.REGISTER_FILES), anyLong(),
            anyInt());
        try (RealDevices d = open(IoChoice.URING)) {
            final dev.kvtier.realio.device.IoUringDevice uring = (dev.kvtier.realio.device.IoUringDevice) d.devices()
                .data();
            final dev.kvtier.realio.memory.NativeRegion r = d.memory().allocate("r", SLOT);
            assertEquals(-Errno.ENOMEM, uring.registerBuffers(d.memory().liveSegments()));
            d.memory().stamp(r, 0, SLOT, 5);
            final dev.kvtier.realio.testkit.Completions c = new dev.kvtier.realio.testkit.Completions();
            uring.submitBlock(1, dev.kvtier.core.value.IoOp.WRITE, 0, r, 0, SLOT);
            c.awaitCount(uring, 1);
            d.memory().stamp(r, 0, SLOT, 6);
            uring.submitBlock(2, dev.kvtier.core.value.IoOp.READ, 0, r, 0, SLOT);
            c.awaitCount(uring, 2);
            assertEquals(SLOT, c.result(1), "unregistered buffers and file still move bytes");
            assertEquals(SLOT, c.result(2));
            assertEquals(-1, d.memory().firstMismatch(r, 0, SLOT, 5));
        }
    }

    @Test
    void shouldFinishAHeaderWrittenInShortPieces() throws Exception {
        doAnswer(inv -> {
            final long count = inv.getArgument(2);
            return LibcKernel.create().pwrite(inv.getArgument(0), inv.getArgument(1), Math.min(count, 1000),
                inv.getArgument(3));
        }).when(kernel).pwrite(anyInt(), anyLong(), anyLong(), anyLong());
        try (RealDevices d = open(IoChoice.FILECHANNEL)) {
            assertTrue(d.data().created());
        }
        final byte[] bytes = Files.readAllBytes(data());
        assertTrue(FileHeader.decode(bytes, bytes.length) instanceof FileHeader.Intact, "the whole header landed");
    }

    @Test
    void shouldReadAShortReadToTheEndBeforeDecidingAndRefuseAForeignFile() throws Exception {
        final byte[] foreign = new byte[1 << 20];
        new Random(1).nextBytes(foreign);
        Files.write(data(), foreign);
        doAnswer(inv -> {
            final long count = inv.getArgument(2);
            return LibcKernel.create().pread(inv.getArgument(0), inv.getArgument(1), Math.min(count, 777),
                inv.getArgument(3));
        }).when(kernel).pread(anyInt(), anyLong(), anyLong(), anyLong());
        final String m = assertThrows(BadDevice.class, () -> open(IoChoice.FILECHANNEL).close()).getMessage();
        assertTrue(m.contains("1048576 B that kvtier did not write"), m);
        assertTrue(java.util.Arrays.equals(foreign, Files.readAllBytes(data())), "the user's file is untouched");
    }

    @Test
    void shouldRefuseAndRemoveTheNewFileWhenTheHeaderCannotBeWrittenOrMadeDurable() {
        doReturn((long) -Errno.ENOSPC).when(kernel).pwrite(anyInt(), anyLong(), anyLong(), anyLong());
        assertRefusedLeavingNothing(IoChoice.FILECHANNEL, "header", "ENOSPC");
        doReturn(0L).when(kernel).pwrite(anyInt(), anyLong(), anyLong(), anyLong());
        assertRefusedLeavingNothing(IoChoice.FILECHANNEL, "no progress");
        doReturn((long) HeaderLayout.BYTES).when(kernel).pwrite(anyInt(), anyLong(), anyLong(), anyLong());
        doReturn(-Errno.EIO).when(kernel).fsync(anyInt());
        assertRefusedLeavingNothing(IoChoice.FILECHANNEL, "fsync", "EIO");
    }

    @Test
    void shouldRefuseAtOnceWhenTheLockIsHeldOrCannotBeTaken() throws Exception {
        Files.createFile(data());
        doReturn(-Errno.EWOULDBLOCK).when(kernel).flock(anyInt(), anyInt());
        final String busy = assertThrows(BadDevice.class, () -> open(IoChoice.FILECHANNEL).close()).getMessage();
        assertTrue(busy.contains("is in use by"), busy);
        doReturn(-37).when(kernel).flock(anyInt(), anyInt());
        final String broken = assertThrows(BadDevice.class, () -> open(IoChoice.FILECHANNEL).close()).getMessage();
        assertTrue(broken.contains("cannot lock") && broken.contains("flock"), broken);
        assertEquals(0, Files.size(data()), "the empty file stays as it was");
    }

    @Test
    void shouldRefuseWithOneLineWhenTheFileCannotBeCreated() {
        doReturn(-Errno.EACCES).when(kernel).open(anyString(), intThat(f -> (f & UringConstants.O_CREAT) != 0),
            anyInt());
        assertRefusedLeavingNothing(IoChoice.FILECHANNEL, "cannot create", "EACCES", "permission denied");
    }
}
