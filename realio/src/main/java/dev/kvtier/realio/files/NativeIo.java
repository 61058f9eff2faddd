package dev.kvtier.realio.files;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reading and writing a few KiB at an offset through the {@link Kernel} port, with short transfers continued and
 * failures as values (one phrase, or null on success). For headers and signatures only; bulk I/O is the devices'.
 */
final class NativeIo {
    private static final int ALIGN = 4096;

    private NativeIo() {}

    /** What a read returned: the bytes (the array may be longer than {@code length}), or why not. */
    // A result handed straight to its caller; never compared, hashed or shared, so an array component is safe.
    @SuppressWarnings("ArrayRecordComponent")
    record Read(byte[] bytes, int length, String failure) {}

    /** Reads up to {@code count} bytes at {@code offset}, fewer at the end of the file. */
    static Read readUpTo(final Kernel kernel, final int fd, final int count, final long offset) {
        final byte[] out = new byte[count];
        if (count == 0) {
            return new Read(out, 0, null);
        }
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment buffer = arena.allocate(count, ALIGN);
            int done = 0;
            while (done < count) {
                final long n = kernel.pread(fd, buffer.address() + done, count - done, offset + done);
                if (n < 0) {
                    return new Read(out, 0, "read failed: " + Errno.ofResult(n));
                }
                if (n == 0) {
                    break;
                }
                done += (int) n;
            }
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, out, 0, done);
            return new Read(out, done, null);
        }
    }

    /** Writes all of {@code bytes} at {@code offset}; null, or why not. */
    static String writeFully(final Kernel kernel, final int fd, final byte[] bytes, final long offset) {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment buffer = arena.allocate(bytes.length, ALIGN);
            MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
            int done = 0;
            while (done < bytes.length) {
                final long n = kernel.pwrite(fd, buffer.address() + done, bytes.length - done, offset + done);
                if (n < 0) {
                    return Errno.ofResult(n) + PathType.hint(n);
                }
                if (n == 0) {
                    return "the write made no progress after " + done + " of " + bytes.length + " B";
                }
                done += (int) n;
            }
            return null;
        }
    }
}
