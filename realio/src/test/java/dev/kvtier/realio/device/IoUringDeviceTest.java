package dev.kvtier.realio.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.testkit.Completions;
import dev.kvtier.realio.testkit.FailingKernel;
import dev.kvtier.realio.testkit.Uring;
import dev.kvtier.realio.uring.UringConstants;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The io_uring device against the device contract, and what only io_uring has. */
class IoUringDeviceTest extends DeviceContract {

    @Override
    IoChoice choice() {
        return IoChoice.URING;
    }

    @Override
    OpenResult open(final Path path, final long sizeBytes, final int depth) {
        Uring.assumeAvailable();
        return Devices.open(path, sizeBytes, depth, IoChoice.URING, memory);
    }

    private IoUringDevice uring() {
        return (IoUringDevice) device;
    }

    @Test
    void shouldUseSingleIssuerDeferredTaskRunAndARegisteredFile() {
        final int flags = uring().setupFlags();
        assertTrue((flags & UringConstants.SETUP_SINGLE_ISSUER) != 0, "flags 0x" + Integer.toHexString(flags));
        assertTrue((flags & UringConstants.SETUP_DEFER_TASKRUN) != 0, "flags 0x" + Integer.toHexString(flags));
        assertTrue(uring().fixedFile());
    }

    @Test
    void shouldFallBackToPlainFlagsWhenTheKernelRefusesDeferredTaskRun() {
        device.close();
        final FailingKernel k = new FailingKernel(
            flags -> (flags & UringConstants.SETUP_DEFER_TASKRUN) != 0 ? Errno.EINVAL : 0, 0);
        device = IoUringDevice.open(k, scratch.file("b.bin"), FILE_BYTES, new IoUringLimits(8, 64, 64), memory)
            .orThrow();
        assertEquals(2, k.setupCalls());
        assertEquals(0, uring().setupFlags() & UringConstants.SETUP_DEFER_TASKRUN);
        shouldRoundTripAlignedBlocks(); // the path where completions arrive without GETEVENTS
    }

    /** A wait with no timeout enters without a timespec: the kernel arms no timer (a hypervisor exit on a VM). */
    @Test
    void shouldWaitWithoutATimerWhenNoTimeoutIsAsked() {
        device.close();
        final FailingKernel k = new FailingKernel(flags -> 0, 0);
        device = IoUringDevice.open(k, scratch.file("c.bin"), FILE_BYTES, new IoUringLimits(8, 64, 64), memory)
            .orThrow();
        final NativeRegion pool = memory.allocate("l1-pool", 1 << 20);
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.WRITE, 0, pool, 0, 4096);
        device.await(Long.MAX_VALUE);
        final int untimed = k.enterFlags().getLast();
        c.awaitCount(device, 1);
        device.submitBlock(2, IoOp.WRITE, 0, pool, 0, 4096);
        device.await(1_000_000_000L);
        final int timed = k.enterFlags().getLast();
        c.awaitCount(device, 2);
        final int extArg = 8; // IORING_ENTER_EXT_ARG
        assertEquals(0, untimed & extArg, "flags 0x" + Integer.toHexString(untimed));
        assertEquals(extArg, timed & extArg, "flags 0x" + Integer.toHexString(timed));
    }

    /** Reads and writes from 1 MiB on go to the kernel's workers (the loop never waits in their submit). */
    @Test
    void shouldHandLargeReadsAndWritesToTheKernelsWorkersAndKeepSmallOnesInline() {
        final NativeRegion pool = memory.allocate("l1-pool", 2 << 20);
        memory.stamp(pool, 0, 1 << 20, 33);
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.WRITE, 0, pool, 0, 64 * 1024);
        c.awaitCount(device, 1);
        assertEquals(0, uring().asyncSqes(), "64 KiB: inline");
        device.submitBlock(2, IoOp.WRITE, 0, pool, 0, 1 << 20);
        c.awaitCount(device, 2);
        device.submitBlock(3, IoOp.READ, 0, pool, 1 << 20, 1 << 20);
        c.awaitCount(device, 3);
        assertEquals(2, uring().asyncSqes(), "the 1 MiB write and the 1 MiB read async");
        device.submitBlock(4, IoOp.READ, 0, pool, 1 << 20, 64 * 1024);
        c.awaitCount(device, 4);
        assertEquals(2, uring().asyncSqes(), "a 64 KiB read inline");
        assertEquals(1 << 20, c.result(3));
        assertEquals(-1, memory.firstMismatch(pool, 1 << 20, 1 << 20, 33), "the async read brought the bytes back");
    }

    @Test
    void shouldMoveFixedBuffersWithReadFixedAndWriteFixed() {
        final NativeRegion pool = memory.allocate("l1-pool", 1 << 20);
        assertEquals(0, uring().registerBuffers(memory.liveSegments()));
        assertEquals(1, uring().fixedBufferCount());
        memory.stamp(pool, 0, 256 * 1024, 21);
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.WRITE, 0, pool, 0, 256 * 1024);
        c.awaitCount(device, 1);
        device.submitBlock(2, IoOp.READ, 0, pool, 512 * 1024, 256 * 1024);
        c.awaitCount(device, 2);
        assertEquals(256 * 1024, c.result(2));
        assertEquals(-1, memory.firstMismatch(pool, 512 * 1024, 256 * 1024, 21));
    }

    @Test
    void shouldSplitARequestWithMorePiecesThanOneSqeCarries() {
        device.close();
        device = IoUringDevice.open(LibcKernel.create(), scratch.file("c.bin"), FILE_BYTES,
            new IoUringLimits(4, 64, 2), memory).orThrow();
        final NativeRegion src = memory.allocate("src", 16 * BLOCK);
        memory.stamp(src, 0, src.sizeBytes(), 31);
        final List<IoSegment> reversed = new ArrayList<>();
        for (int i = 7; i >= 0; i--) {
            reversed.add(new IoSegment(src, 2L * i * BLOCK, BLOCK)); // 8 pieces, none adjacent in memory
        }
        final Completions c = new Completions();
        device.submit(new IoRequest(1, IoOp.WRITE, 0, reversed)); // 4 SQEs of 2 iovecs, depth 4
        device.submit(new IoRequest(2, IoOp.WRITE, 8 * BLOCK, List.of(new IoSegment(src, 0, 4 * BLOCK),
            new IoSegment(src, 4 * BLOCK, 4 * BLOCK)))); // adjacent in memory: merged into one iovec
        c.awaitCount(device, 2);
        assertEquals(8 * BLOCK, c.result(1));
        assertEquals(8 * BLOCK, c.result(2));
        final NativeRegion back = memory.allocate("back", 16 * BLOCK);
        device.submitBlock(3, IoOp.READ, 0, back, 0, 16 * BLOCK);
        c.awaitCount(device, 3);
        for (int i = 0; i < 8; i++) {
            assertEquals(-1L, MemorySegment.mismatch(back.segment(), i * BLOCK, (i + 1) * BLOCK, src.segment(),
                (7 - i) * 2L * BLOCK, (7 - i) * 2L * BLOCK + BLOCK), "piece " + i);
        }
        assertEquals(-1, memory.firstMismatch(back, 8 * BLOCK, 8 * BLOCK, 31));
    }

    @Test
    void shouldUnmapItsRingsAndCloseItsDescriptorsOnClose() throws Exception {
        device.close();
        final long fds = ProcSelf.openFds();
        final long maps = ProcSelf.uringMappings();
        final PolledDevice d = IoUringDevice.open(scratch.file("r.bin"), FILE_BYTES, 16, memory).orThrow();
        final NativeRegion r = memory.allocate("r", BLOCK);
        assertEquals(0, ((IoUringDevice) d).registerBuffers(memory.liveSegments()));
        final Completions c = new Completions();
        d.submitBlock(1, IoOp.WRITE, 0, r, 0, BLOCK);
        c.awaitCount(d, 1);
        assertEquals(fds + 2, ProcSelf.openFds(), "the ring and the file");
        assertTrue(ProcSelf.uringMappings() > maps, "rings mapped");
        d.close();
        assertEquals(fds, ProcSelf.openFds());
        assertEquals(maps, ProcSelf.uringMappings());
    }

    /** A region over an address nothing maps (made with the restricted reinterpret, on purpose). */
    @Test
    @SuppressWarnings("restricted")
    void shouldReportABadAddressAsANegativeErrno() {
        final NativeRegion unmapped = NativeRegion.wrap("unmapped", MemorySegment.ofAddress(0x10000).reinterpret(
            BLOCK));
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.READ, 0, unmapped, 0, BLOCK);
        c.awaitCount(device, 1);
        assertEquals(-Errno.EFAULT, c.result(1));
    }

    @Test
    void shouldFallBackToFileChannelWithANoticeWhenIoUringIsDenied() {
        final FailingKernel denied = new FailingKernel(flags -> Errno.EPERM, 0);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final OpenResult r = Devices.open(denied, scratch.file("auto.bin"), FILE_BYTES, 8, IoChoice.AUTO, memory,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        final OpenResult.Opened o = assertInstanceOf(OpenResult.Opened.class, r);
        try (PolledDevice d = o.device()) {
            assertEquals("filechannel", d.kind());
        }
        final String notice = err.toString(StandardCharsets.UTF_8);
        assertTrue(notice.contains("EPERM") && notice.contains("FileChannel"), notice);
        assertEquals(1, notice.lines().count());
        final OpenResult forced = Devices.open(denied, scratch.file("u.bin"), FILE_BYTES, 8, IoChoice.URING, memory,
            System.err);
        final OpenResult.Failed f = assertInstanceOf(OpenResult.Failed.class, forced);
        assertEquals(OpenResult.Failure.URING_UNAVAILABLE, f.failure());
        assertTrue(f.message().contains("EPERM"), f.message());
    }

    @Test
    void shouldNameEnosysWhenTheKernelHasNoIoUring() {
        final FailingKernel none = new FailingKernel(flags -> Errno.ENOSYS, 0);
        final OpenResult.Failed f = assertInstanceOf(OpenResult.Failed.class,
            IoUringDevice.open(none, scratch.file("n.bin"), FILE_BYTES, new IoUringLimits(8, 64, 64), memory));
        assertTrue(f.message().contains("ENOSYS"), f.message());
    }

    @Test
    void shouldGiveAOneLineErrorWhenTheFileSystemRefusesDirectIo() {
        final FailingKernel noDirect = new FailingKernel(flags -> 0, Errno.EINVAL);
        final OpenResult r = Devices.open(noDirect, scratch.file("d.bin"), FILE_BYTES, 8, IoChoice.AUTO, memory,
            System.err);
        final OpenResult.Failed f = assertInstanceOf(OpenResult.Failed.class, r);
        assertEquals(OpenResult.Failure.NO_DIRECT_IO, f.failure());
        assertTrue(f.message().contains("O_DIRECT") && f.message().contains("EINVAL"), f.message());
        assertFalse(f.message().contains("\n"));
    }
}
