package dev.kvtier.realio.device;

import static dev.kvtier.realio.uring.UringConstants.O_CLOEXEC;
import static dev.kvtier.realio.uring.UringConstants.O_CREAT;
import static dev.kvtier.realio.uring.UringConstants.O_DIRECT;
import static dev.kvtier.realio.uring.UringConstants.O_RDWR;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opening the L2 file or block device with O_DIRECT, for both real devices, and making it at least
 * {@code sizeBytes} long: a regular file is created if missing and pre-sized, a block device must already be large
 * enough. {@link #descriptor} opens through libc (for io_uring; a regular file is pre-sized with fallocate, or
 * ftruncate where the file system has no fallocate), {@link #channel} as a FileChannel (for the fallback; a regular
 * file is grown with {@code setLength}). Failures are values with one-line messages.
 */
final class DirectFile {
    private static final int MODE_0644 = 0644;
    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, found by name: javac prints "internal proprietary API" at
     * every compile-time reference to it, a warning no {@code @SuppressWarnings} silences, and the build fails on
     * warnings. Null on a JDK without it, where {@link #channel} refuses with NO_DIRECT_IO.
     */
    private static final OpenOption DIRECT = extendedOpenOption("DIRECT");

    /** The outcome of opening: the open file, or why not. */
    sealed interface Opening<F> permits Opened, Refused {}

    /** An open file (a descriptor or a channel), at least the size asked. */
    record Opened<F>(F file) implements Opening<F> {}

    /** No file: the failure to report. */
    record Refused<F>(OpenResult.Failed failure) implements Opening<F> {}

    private DirectFile() {}

    /** Opens {@code path} with O_DIRECT through {@code kernel}; the descriptor, or why not. */
    static Opening<Integer> descriptor(final Kernel kernel, final Path path, final long sizeBytes) {
        final boolean existing = Files.exists(path);
        final boolean regular = !existing || Files.isRegularFile(path);
        if (existing && Files.isDirectory(path)) {
            return refused(OpenResult.Failure.OPEN_FAILED, path + " is a directory, not a file or block device");
        }
        final int flags = O_RDWR | O_DIRECT | O_CLOEXEC | (regular ? O_CREAT : 0);
        final int fd = kernel.open(path.toString(), flags, MODE_0644);
        if (fd == -Errno.EINVAL) {
            return refused(OpenResult.Failure.NO_DIRECT_IO, "cannot open " + path
                + " with O_DIRECT: EINVAL (its file system does not support direct I/O; put the L2 file on ext4, "
                + "xfs or a block device)");
        }
        if (fd < 0) {
            return refused(OpenResult.Failure.OPEN_FAILED, "cannot open " + path + ": " + Errno.ofResult(fd));
        }
        final long current = kernel.sizeOf(fd);
        if (current < 0) {
            kernel.close(fd);
            return refused(OpenResult.Failure.OPEN_FAILED, "cannot size " + path + " (lseek): "
                + Errno.ofResult(current));
        }
        if (current >= sizeBytes) {
            return new Opened<>(fd);
        }
        if (!regular) {
            kernel.close(fd);
            return refused(OpenResult.Failure.OPEN_FAILED, path + " holds " + current + " B, less than the "
                + sizeBytes + " B asked");
        }
        int rc = kernel.fallocate(fd, 0, 0, sizeBytes);
        if (rc == -Errno.EOPNOTSUPP) {
            rc = kernel.ftruncate(fd, sizeBytes);
        }
        if (rc < 0) {
            kernel.close(fd);
            return refused(OpenResult.Failure.OPEN_FAILED, "cannot pre-size " + path + " to " + sizeBytes + " B: "
                + Errno.ofResult(rc));
        }
        return new Opened<>(fd);
    }

    /**
     * Opens {@code path} as a FileChannel with {@code ExtendedOpenOption.DIRECT}, growing a regular file to
     * {@code sizeBytes} first; the channel, or why not.
     */
    static Opening<FileChannel> channel(final Path path, final long sizeBytes) {
        try {
            if (!Files.exists(path) || Files.isRegularFile(path)) {
                try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
                    if (f.length() < sizeBytes) {
                        f.setLength(sizeBytes);
                    }
                }
            }
        } catch (final IOException e) {
            return refused(OpenResult.Failure.OPEN_FAILED, "cannot create or size " + path + ": " + e.getMessage());
        }
        if (DIRECT == null) {
            return refused(OpenResult.Failure.NO_DIRECT_IO, "cannot open " + path + " with O_DIRECT: this JDK has no "
                + "ExtendedOpenOption.DIRECT; use io_uring");
        }
        final FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, DIRECT);
        } catch (final IOException | UnsupportedOperationException e) {
            return refused(OpenResult.Failure.NO_DIRECT_IO, "cannot open " + path + " with O_DIRECT ("
                + e.getMessage() + "); put the L2 file on ext4, xfs or a block device");
        }
        try {
            final long current = ch.size();
            if (current < sizeBytes) {
                ch.close();
                return refused(OpenResult.Failure.OPEN_FAILED, path + " holds " + current + " B, less than the "
                    + sizeBytes + " B asked");
            }
        } catch (final IOException e) {
            return refused(OpenResult.Failure.OPEN_FAILED, "cannot size " + path + ": " + e.getMessage());
        }
        return new Opened<>(ch);
    }

    /** The {@code com.sun.nio.file.ExtendedOpenOption} of that name, or null when this JDK has none. */
    static OpenOption extendedOpenOption(final String name) {
        try {
            for (final Object option : Class.forName("com.sun.nio.file.ExtendedOpenOption").getEnumConstants()) {
                if (option instanceof OpenOption o && ((Enum<?>) option).name().equals(name)) {
                    return o;
                }
            }
            return null;
        } catch (final ClassNotFoundException e) {
            return null;
        }
    }

    private static <F> Refused<F> refused(final OpenResult.Failure failure, final String message) {
        return new Refused<>(new OpenResult.Failed(failure, message));
    }
}
