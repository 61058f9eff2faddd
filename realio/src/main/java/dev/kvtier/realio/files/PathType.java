package dev.kvtier.realio.files;

import dev.kvtier.realio.ffi.Errno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What a path names, as far as a claim cares: nothing yet, a regular file, or a block device; anything else is refused.
 */
enum PathType {
    ABSENT,
    REGULAR,
    BLOCK;

    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFCHR = 0020000;

    /** The type of the request's path (links followed), or a refusal naming what it is instead. */
    static PathType of(final Claim.Request request) throws ClaimRefused {
        final Path path = request.path();
        final int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode");
        } catch (final NoSuchFileException e) {
            return absent(request);
        } catch (final IOException | UnsupportedOperationException | IllegalArgumentException e) {
            throw new ClaimRefused("cannot look at " + request.name() + ": " + e.getMessage());
        }
        return switch (mode & S_IFMT) {
            case S_IFREG -> REGULAR;
            case S_IFBLK -> BLOCK;
            case S_IFDIR -> throw new ClaimRefused(request.name() + " is a directory; name a file (it is created) "
                + "or a block device");
            case S_IFCHR -> throw new ClaimRefused(request.name() + " is a character device, not a file or a block "
                + "device");
            default -> throw new ClaimRefused(request.name() + " is not a regular file or a block device (a pipe or "
                + "a socket)");
        };
    }

    private static PathType absent(final Claim.Request request) throws ClaimRefused {
        final Path path = request.path();
        if (Files.isSymbolicLink(path)) {
            throw new ClaimRefused(request.name() + " points to nothing (a dangling link); kvtier does not create "
                + "files through links");
        }
        final Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new ClaimRefused("cannot create " + request.name() + ": " + (Files.exists(parent) ? parent
                + " is not a directory" : "directory " + parent + " does not exist"));
        }
        return ABSENT;
    }

    /** A few words after an errno for the common cases, or nothing. */
    static String hint(final long result) {
        final int errno = (int) -result;
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            return " (permission denied)";
        }
        if (errno == Errno.EROFS) {
            return " (a read-only file system)";
        }
        if (errno == Errno.ENOENT || errno == Errno.ENOTDIR) {
            return " (a directory on the path does not exist)";
        }
        if (errno == Errno.ENOSPC) {
            return " (the disk is full)";
        }
        return "";
    }
}
