package dev.kvtier.realio.files;

import static dev.kvtier.realio.uring.UringConstants.LOCK_EX;
import static dev.kvtier.realio.uring.UringConstants.LOCK_NB;
import static dev.kvtier.realio.uring.UringConstants.O_CLOEXEC;
import static dev.kvtier.realio.uring.UringConstants.O_CREAT;
import static dev.kvtier.realio.uring.UringConstants.O_EXCL;
import static dev.kvtier.realio.uring.UringConstants.O_RDWR;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * A path a run has taken: open, locked ({@code flock}, held until {@link #close}), and stamped with kvtier's header
 * ({@link FileHeader}) for its kind. {@link #take} accepts a path only when it is absent (it is created), empty, a
 * block device whose first MiB is zeros, or kvtier's own file of the asked kind; anything else is refused with one
 * line unless the request's {@link Force} allows it. A second run on the same path is refused at once, naming the
 * holder the header records. Nothing is written before the decision, and a file the claim created is removed if the
 * claim fails or the run gives it up ({@link #abandon}).
 *
 * <p>The lock is an {@code flock} on the claim's own descriptor: it belongs to that open file description, so other
 * descriptors the run opens and closes on the same file (the O_DIRECT device) do not release it, and a second claim
 * in the same process conflicts as one in another process does. It is advisory: it keeps kvtier runs apart, not
 * other programs.
 */
public final class Claim implements AutoCloseable {
    private static final int MODE_0644 = 0644;
    private static final SecureRandom IDS = new SecureRandom();

    private final Kernel kernel;
    private final Request request;
    private final int fd;
    private final boolean created;
    private final boolean blockDevice;
    private final FileHeader header;
    private boolean closed;
    private boolean stamped;

    /**
     * What to take.
     *
     * @param path    the file or block device
     * @param role    how messages name it ("--device", "--index-device", "scratch file")
     * @param kind    what it is for
     * @param recover the run reads what an earlier run left: the path must exist and be kvtier's of this kind
     * @param force   how far the user lets kvtier write over what is not its own
     * @param pairId  for an index: its data file's creation id (checked when recovering, written otherwise); else 0
     * @param holder  who takes it (written into the header)
     */
    public record Request(Path path, String role, FileKind kind, boolean recover, Force force, long pairId,
                          Holder holder) {
        public Request {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(force, "force");
            Objects.requireNonNull(holder, "holder");
        }

        /** The start of every message about this path: {@code --device l2.bin (a link to /data/x.bin)}. */
        String name() {
            if (Files.isSymbolicLink(path)) {
                try {
                    return role + " " + path + " (a link to " + Files.readSymbolicLink(path) + ")";
                } catch (final IOException | UnsupportedOperationException e) {
                    return role + " " + path + " (a link)";
                }
            }
            return role + " " + path;
        }
    }

    private Claim(final Kernel kernel, final Request request, final int fd, final boolean created,
                  final boolean blockDevice, final FileHeader header) {
        this.kernel = kernel;
        this.request = request;
        this.fd = fd;
        this.created = created;
        this.blockDevice = blockDevice;
        this.header = header;
    }

    /** Takes {@code request.path()}, or refuses it with one line; nothing is left open or created on refusal. */
    public static Claim take(final Kernel kernel, final Request request) throws ClaimRefused {
        final Claim claim = decide(kernel, request);
        try {
            claim.stamp();
        } catch (final ClaimRefused | RuntimeException e) {
            claim.abandon();
            throw e;
        }
        return claim;
    }

    /**
     * Opens, locks and judges {@code request.path()} without writing to it: the claim holds the lock and knows the
     * header it will write, which {@link #stamp} writes. A run that claims several paths decides on all of them
     * before it writes to any, so a refusal of the second leaves the first as it was. Refuses with one line; nothing
     * is left open or created on refusal.
     */
    public static Claim decide(final Kernel kernel, final Request request) throws ClaimRefused {
        final PathType type = PathType.of(request);
        if (type == PathType.ABSENT && request.recover()) {
            throw new ClaimRefused(request.name() + " does not exist: there is nothing to recover (run without "
                + "--recover to start afresh)");
        }
        final Opened opened = open(kernel, request, type);
        boolean locked = false;
        try {
            lock(kernel, opened.fd(), request);
            locked = true;
            final Contents contents = Contents.read(kernel, opened.fd(), request);
            final FileHeader header = ClaimRules.decide(request, type == PathType.BLOCK, contents, IDS.nextLong());
            return new Claim(kernel, request, opened.fd(), opened.created(), type == PathType.BLOCK, header);
        } catch (final ClaimRefused | RuntimeException e) {
            if (opened.created() && locked) {
                kernel.unlink(request.path().toString());
            }
            kernel.close(opened.fd());
            throw e;
        }
    }

    /** Writes the header this claim decided on and makes it durable; once. */
    public void stamp() throws ClaimRefused {
        if (stamped) {
            return;
        }
        writeHeader(kernel, fd, request, header);
        stamped = true;
    }

    /** The descriptor and whether this claim created the file. */
    private record Opened(int fd, boolean created) {}

    private static Opened open(final Kernel kernel, final Request request, final PathType type) throws ClaimRefused {
        final String path = request.path().toString();
        if (type == PathType.ABSENT) {
            final int fd = kernel.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, MODE_0644);
            if (fd >= 0) {
                return new Opened(fd, true);
            }
            if (fd != -Errno.EEXIST) {
                throw new ClaimRefused("cannot create " + request.name() + ": " + Errno.ofResult(fd)
                    + PathType.hint(fd));
            }
        }
        final int fd = kernel.open(path, O_RDWR | O_CLOEXEC, 0);
        if (fd < 0) {
            throw new ClaimRefused("cannot open " + request.name() + ": " + Errno.ofResult(fd) + PathType.hint(fd));
        }
        return new Opened(fd, false);
    }

    private static void lock(final Kernel kernel, final int fd, final Request request) throws ClaimRefused {
        final int rc = kernel.flock(fd, LOCK_EX | LOCK_NB);
        if (rc == -Errno.EWOULDBLOCK) {
            throw new ClaimRefused(request.name() + " is in use by " + Contents.holderOf(kernel, fd)
                + "; wait for it to end, or use another path");
        }
        if (rc < 0) {
            throw new ClaimRefused("cannot lock " + request.name() + " (flock): " + Errno.ofResult(rc));
        }
    }

    private static void writeHeader(final Kernel kernel, final int fd, final Request request,
                                    final FileHeader header) throws ClaimRefused {
        final String failure = NativeIo.writeFully(kernel, fd, header.encode(), 0);
        if (failure != null) {
            throw new ClaimRefused("cannot write kvtier's header to " + request.name() + ": " + failure);
        }
        final int rc = kernel.fsync(fd);
        if (rc < 0) {
            throw new ClaimRefused("cannot make the header of " + request.name() + " durable (fsync): "
                + Errno.ofResult(rc));
        }
    }

    /** The claimed path. */
    public Path path() {
        return request.path();
    }

    /** Where the data begins: the devices add this to every offset. */
    public long baseOffset() {
        return HeaderLayout.BYTES;
    }

    /** The header written: kind, creation id (an index's data file names it as its pair), holder. */
    public FileHeader header() {
        return header;
    }

    /** True when this claim created the file. */
    public boolean created() {
        return created;
    }

    /** True for a block device (sized as it is), false for a regular file. */
    public boolean blockDevice() {
        return blockDevice;
    }

    /**
     * Drops a regular file's data (it is cut to its header), so the next open sizes it with zeros; a block device is
     * left as it is.
     */
    public void discardData() throws ClaimRefused {
        if (blockDevice) {
            return;
        }
        final int rc = kernel.ftruncate(fd, HeaderLayout.BYTES);
        if (rc < 0) {
            throw new ClaimRefused("cannot empty " + request.name() + " (ftruncate): " + Errno.ofResult(rc));
        }
    }

    /** Gives the path up after a failure: a file this claim created is removed; then {@link #close}. */
    public void abandon() {
        if (!closed && created) {
            kernel.unlink(request.path().toString());
        }
        close();
    }

    /** Releases the lock (closes the claim's descriptor); once. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        kernel.close(fd);
    }

    @Override
    public String toString() {
        return "Claim[" + request.name() + ", " + header.kind().label() + (created ? ", created" : "") + "]";
    }
}
