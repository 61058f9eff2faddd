package dev.kvtier.realio.device;

import static dev.kvtier.realio.uring.UringConstants.O_CLOEXEC;
import static dev.kvtier.realio.uring.UringConstants.O_CREAT;
import static dev.kvtier.realio.uring.UringConstants.O_DIRECT;
import static dev.kvtier.realio.uring.UringConstants.O_RDWR;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens the L2 file or block device with O_DIRECT through libc and makes it at least {@code sizeBytes} long: a
 * regular file is created if missing and pre-sized with fallocate (ftruncate where the file system has no
 * fallocate); a block device must already be large enough. Failures are values with one-line messages.
 */
final class DirectFile {
    private static final int MODE_0644 = 0644;

    /** An open descriptor and the usable size. */
    record Opened(int fd, long sizeBytes) {
    }

    private DirectFile() {
    }

    /** Returns {@link Opened} or {@link OpenResult.Failed}. */
    static Object open(final Kernel kernel, final Path path, final long sizeBytes) {
        final boolean existing = Files.exists(path);
        final boolean regular = !existing || Files.isRegularFile(path);
        if (existing && Files.isDirectory(path)) {
            return new OpenResult.Failed(OpenResult.Failure.OPEN_FAILED, path + " is a directory, not a file or "
                + "block device");
        }
        final int flags = O_RDWR | O_DIRECT | O_CLOEXEC | (regular ? O_CREAT : 0);
        final int fd = kernel.open(path.toString(), flags, MODE_0644);
        if (fd == -Errno.EINVAL) {
            return new OpenResult.Failed(OpenResult.Failure.NO_DIRECT_IO, "cannot open " + path
                + " with O_DIRECT: EINVAL (its file system does not support direct I/O; put the L2 file on ext4, "
                + "xfs or a block device)");
        }
        if (fd < 0) {
            return new OpenResult.Failed(OpenResult.Failure.OPEN_FAILED, "cannot open " + path + ": "
                + Errno.ofResult(fd));
        }
        final long current = kernel.sizeOf(fd);
        if (current < 0) {
            kernel.close(fd);
            return new OpenResult.Failed(OpenResult.Failure.OPEN_FAILED, "cannot size " + path + " (lseek): "
                + Errno.ofResult(current));
        }
        if (current >= sizeBytes) {
            return new Opened(fd, sizeBytes);
        }
        if (!regular) {
            kernel.close(fd);
            return new OpenResult.Failed(OpenResult.Failure.OPEN_FAILED, path + " holds " + current
                + " B, less than the " + sizeBytes + " B asked");
        }
        int rc = kernel.fallocate(fd, 0, 0, sizeBytes);
        if (rc == -Errno.EOPNOTSUPP) {
            rc = kernel.ftruncate(fd, sizeBytes);
        }
        if (rc < 0) {
            kernel.close(fd);
            return new OpenResult.Failed(OpenResult.Failure.OPEN_FAILED, "cannot pre-size " + path + " to "
                + sizeBytes + " B: " + Errno.ofResult(rc));
        }
        return new Opened(fd, sizeBytes);
    }
}
