package dev.kvtier.realio.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.testkit.Completions;
import dev.kvtier.realio.testkit.Scratch;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every polled device must do, run against each implementation by a subclass. */
abstract class DeviceContract {
    static final long BLOCK = 4096;
    static final long FILE_BYTES = 4L << 20;

    Scratch scratch;
    NativeMemory memory;
    PolledDevice device;
    Path file;

    /** Opens the device under test. */
    abstract OpenResult open(Path path, long sizeBytes, int depth);

    /** Which implementation this is. */
    abstract IoChoice choice();

    @BeforeEach
    void setUp() {
        scratch = new Scratch();
        memory = new NativeMemory(64L << 20);
        file = scratch.file("l2.bin");
        device = openOrSkip(file, FILE_BYTES, 32);
    }

    PolledDevice openOrSkip(final Path path, final long sizeBytes, final int depth) {
        final OpenResult r = open(path, sizeBytes, depth);
        if (r instanceof OpenResult.Failed f) {
            Assumptions.assumeFalse(f.failure() == OpenResult.Failure.NO_DIRECT_IO, f.message());
            Assumptions.assumeFalse(f.failure() == OpenResult.Failure.URING_UNAVAILABLE, f.message());
        }
        return r.orThrow();
    }

    @AfterEach
    void tearDown() {
        if (device != null) {
            device.close();
        }
        memory.close();
        scratch.close();
    }

    @Test
    void shouldRoundTripAlignedBlocks() {
        final NativeRegion src = memory.allocate("src", 64 * 1024);
        final NativeRegion dst = memory.allocate("dst", 64 * 1024);
        memory.stamp(src, 0, src.sizeBytes(), 7);
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.WRITE, 128 * 1024, src, 0, src.sizeBytes());
        c.awaitCount(device, 1);
        device.submitBlock(2, IoOp.FLUSH, 0, null, 0, 0);
        device.submitBlock(3, IoOp.READ, 128 * 1024, dst, 0, dst.sizeBytes());
        c.awaitCount(device, 3);
        assertEquals(64 * 1024, c.result(1));
        assertEquals(0, c.result(2));
        assertEquals(64 * 1024, c.result(3));
        assertEquals(-1, memory.firstMismatch(dst, 0, dst.sizeBytes(), 7));
        assertEquals(0, device.outstanding());
    }

    @Test
    void shouldRoundTripMultiSegmentRequestsThroughThePort() {
        final NativeRegion a = memory.allocate("a", 3 * BLOCK);
        final NativeRegion b = memory.allocate("b", 2 * BLOCK);
        memory.stamp(a, 0, a.sizeBytes(), 11);
        memory.stamp(b, 0, b.sizeBytes(), 12);
        final Completions c = new Completions();
        // File order: a[2], b[0..2), a[0] -- three pieces from two regions, out of memory order.
        device.submit(new IoRequest(5, IoOp.WRITE, 8 * BLOCK, List.of(new IoSegment(a, 2 * BLOCK, BLOCK),
            new IoSegment(b, 0, 2 * BLOCK), new IoSegment(a, 0, BLOCK))));
        c.awaitCount(device, 1);
        final NativeRegion back = memory.allocate("back", 4 * BLOCK);
        device.submit(new IoRequest(6, IoOp.READ, 8 * BLOCK, List.of(new IoSegment(back, 0, 4 * BLOCK))));
        c.awaitCount(device, 2);
        assertEquals(4 * BLOCK, c.result(5));
        assertEquals(4 * BLOCK, c.result(6));
        final NativeRegion expect = memory.allocate("expect", 4 * BLOCK);
        memory.copy(a, 2 * BLOCK, expect, 0, BLOCK);
        memory.copy(b, 0, expect, BLOCK, 2 * BLOCK);
        memory.copy(a, 0, expect, 3 * BLOCK, BLOCK);
        assertEquals(-1L, back.segment().mismatch(expect.segment()));
    }

    @Test
    void shouldCompleteManyConcurrentOperationsWithTheRightResults() {
        final int ops = 256;
        final NativeRegion src = memory.allocate("src", ops * BLOCK);
        final NativeRegion dst = memory.allocate("dst", ops * BLOCK);
        for (int i = 0; i < ops; i++) {
            memory.stamp(src, i * BLOCK, BLOCK, 1000 + i);
        }
        final Completions c = new Completions();
        final int depth = 32;
        for (int i = 0; i < 2 * ops; i++) {
            final int block = i % ops;
            final long fileOffset = (long) ((block * 37) % ops) * BLOCK;
            if (i < ops) {
                device.submitBlock(i, IoOp.WRITE, fileOffset, src, block * BLOCK, BLOCK);
            } else {
                device.submitBlock(i, IoOp.READ, fileOffset, dst, block * BLOCK, BLOCK);
            }
            if (device.outstanding() == depth || i == ops - 1) {
                // At most depth in flight; all writes land before the first read is submitted.
                c.awaitCount(device, i == ops - 1 ? ops : c.results().size() + 1);
            }
        }
        c.awaitCount(device, 2 * ops);
        for (int i = 0; i < 2 * ops; i++) {
            assertEquals(BLOCK, c.result(i), "I/O " + i);
        }
        for (int i = 0; i < ops; i++) {
            assertEquals(-1, memory.firstMismatch(dst, i * BLOCK, BLOCK, 1000 + i), "block " + i);
        }
    }

    @Test
    void shouldRejectUnalignedRequestsNamingTheValue() {
        final NativeRegion r = memory.allocate("r", 4 * BLOCK);
        final IllegalArgumentException offset = assertThrows(IllegalArgumentException.class,
            () -> device.submitBlock(1, IoOp.READ, 512, r, 0, BLOCK));
        assertTrue(offset.getMessage().contains("file offset 512"), offset.getMessage());
        final IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
            () -> device.submitBlock(2, IoOp.WRITE, 0, r, 0, 1000));
        assertTrue(length.getMessage().contains("length 1000"), length.getMessage());
        final IllegalArgumentException address = assertThrows(IllegalArgumentException.class,
            () -> device.submitBlock(3, IoOp.WRITE, 0, r, 100, BLOCK));
        assertTrue(address.getMessage().contains("memory address"), address.getMessage());
        assertTrue(address.getMessage().contains(Long.toString(r.address(100))), address.getMessage());
        final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
            () -> device.submitBlock(4, IoOp.READ, FILE_BYTES, r, 0, BLOCK));
        assertTrue(beyond.getMessage().contains("outside"), beyond.getMessage());
        assertEquals(0, device.outstanding(), "nothing was accepted");
    }

    @Test
    void shouldRefuseThroughThePortARegionOfAnotherMemory() {
        try (NativeMemory other = new NativeMemory(1 << 20)) {
            final NativeRegion theirs = other.allocate("theirs", BLOCK);
            final NativeRegion mine = memory.allocate("mine", BLOCK);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> device.submit(new IoRequest(1, IoOp.WRITE, 0, List.of(new IoSegment(theirs, 0, BLOCK)))));
            assertTrue(e.getMessage().contains("theirs"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> device.submit(new IoRequest(2, IoOp.WRITE, 0,
                List.of(new IoSegment(mine, 0, BLOCK), new IoSegment(theirs, 0, BLOCK)))), "a vectored request");
            assertEquals(0, device.outstanding(), "nothing was accepted");
        }
    }

    @Test
    void shouldPutOffsetZeroAtTheBaseOffsetAndNeverTouchTheBytesBefore() throws Exception {
        final Path headed = scratch.file("headed.bin");
        final byte[] header = new byte[(int) BLOCK];
        Arrays.fill(header, (byte) 0x5A);
        Files.write(headed, header);
        final PolledDevice d = Devices.open(LibcKernel.create(), new DeviceFile(headed, BLOCK, FILE_BYTES), 4,
            choice(), memory, System.err).orThrow();
        try {
            assertEquals(FILE_BYTES, d.capacityBytes(), "the device is its size, not the file's");
            final NativeRegion src = memory.allocate("src", 2 * BLOCK);
            memory.stamp(src, 0, src.sizeBytes(), 3);
            final Completions c = new Completions();
            d.submitBlock(1, IoOp.WRITE, 0, src, 0, 2 * BLOCK);
            d.submitBlock(2, IoOp.WRITE, FILE_BYTES - 2 * BLOCK, src, 0, 2 * BLOCK);
            c.awaitCount(d, 2);
            assertEquals(2 * BLOCK, c.result(1));
            assertEquals(2 * BLOCK, c.result(2), "the device's last bytes lie past the header too");
            assertThrows(IllegalArgumentException.class, () -> d.submitBlock(3, IoOp.WRITE, FILE_BYTES, src, 0,
                BLOCK), "nothing past the device's end");
        } finally {
            d.close();
        }
        final byte[] file = Files.readAllBytes(headed);
        assertEquals(BLOCK + FILE_BYTES, file.length, "the file is sized to the base offset and the device");
        assertTrue(Arrays.equals(header, 0, (int) BLOCK, file, 0, (int) BLOCK), "the header is untouched");
        final NativeRegion back = memory.allocate("back", 2 * BLOCK);
        MemorySegment.copy(file, (int) BLOCK, back.segment(), ValueLayout.JAVA_BYTE,
            0, (int) (2 * BLOCK));
        assertEquals(-1, memory.firstMismatch(back, 0, back.sizeBytes(), 3), "offset 0 is the file's byte 4096");
    }

    @Test
    void shouldReportAShortReadAsAnError() throws Exception {
        final NativeRegion r = memory.allocate("r", 2 * BLOCK);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(FILE_BYTES / 2); // the file shrinks under the device
        }
        final Completions c = new Completions();
        device.submitBlock(1, IoOp.READ, FILE_BYTES / 2 - BLOCK, r, 0, 2 * BLOCK); // straddles the new end
        device.submitBlock(2, IoOp.READ, FILE_BYTES / 2 + BLOCK, r, 0, BLOCK); // wholly past it
        c.awaitCount(device, 2);
        assertEquals(-Errno.EIO, c.result(1));
        assertEquals(-Errno.EIO, c.result(2));
        assertTrue(new IoCompletion(1, c.result(1)).failed());
    }

    @Test
    void shouldCloseOnceAndRefuseUseAfterClose() {
        final NativeRegion r = memory.allocate("r", BLOCK);
        device.close();
        device.close(); // a second close does nothing
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> device.submitBlock(1, IoOp.WRITE, 0, r, 0, BLOCK));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> device.flush());
    }

    @Test
    void shouldRefuseUseFromAnotherThread() throws Exception {
        final Throwable[] seen = new Throwable[1];
        final Thread t = Thread.ofPlatform().start(() -> {
            try {
                device.flush();
            } catch (final Throwable e) {
                seen[0] = e;
            }
        });
        t.join();
        assertTrue(seen[0] instanceof IllegalStateException, String.valueOf(seen[0]));
    }
}
