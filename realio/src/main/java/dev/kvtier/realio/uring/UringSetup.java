package dev.kvtier.realio.uring;

import static dev.kvtier.realio.uring.UringConstants.FEAT_EXT_ARG;
import static dev.kvtier.realio.uring.UringConstants.FEAT_NODROP;
import static dev.kvtier.realio.uring.UringConstants.FEAT_SINGLE_MMAP;
import static dev.kvtier.realio.uring.UringConstants.FEAT_SUBMIT_STABLE;
import static dev.kvtier.realio.uring.UringConstants.MAP_POPULATE;
import static dev.kvtier.realio.uring.UringConstants.MAP_SHARED;
import static dev.kvtier.realio.uring.UringConstants.PROT_READ;
import static dev.kvtier.realio.uring.UringConstants.PROT_WRITE;
import static dev.kvtier.realio.uring.UringConstants.SETUP_CLAMP;
import static dev.kvtier.realio.uring.UringConstants.SETUP_DEFER_TASKRUN;
import static dev.kvtier.realio.uring.UringConstants.SETUP_SINGLE_ISSUER;
import static dev.kvtier.realio.uring.UringConstants.SETUP_SUBMIT_ALL;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.kvtier.realio.ffi.Errno;
import dev.kvtier.realio.ffi.Kernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Creates an {@link IoUring}: io_uring_setup with the best flags the kernel accepts (SINGLE_ISSUER and
 * DEFER_TASKRUN first, then without DEFER_TASKRUN, then without either; a kernel that does not know a flag
 * answers EINVAL), checks the features realio relies on, and maps the rings. Failure is a value naming the errno
 * and what it usually means, so a caller can fall back.
 */
public final class UringSetup {
    /** Flag sets tried in order; each later one drops something an older kernel may refuse. */
    static final int[] FLAG_ATTEMPTS = {
        SETUP_CLAMP | SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN,
        SETUP_CLAMP | SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER,
        SETUP_CLAMP | SETUP_SUBMIT_ALL,
        SETUP_CLAMP,
    };
    private static final int FEATURES_NEEDED = FEAT_SUBMIT_STABLE | FEAT_EXT_ARG | FEAT_NODROP;

    /** The outcome of a setup. */
    public sealed interface Result permits Ready, Unavailable {}

    /** A working ring. */
    public record Ready(IoUring ring) implements Result {}

    /**
     * io_uring cannot be used here.
     *
     * @param errno   the errno of the failing call, or 0 when the kernel lacks a feature
     * @param message one line: what failed, the errno name, the usual cause
     */
    public record Unavailable(int errno, String message) implements Result {}

    /** The outcome of mapping a ring's regions: its mappings, or why not. */
    sealed interface Mapping permits RingMaps, MapFailed {}

    /**
     * A mapping failed; what was mapped before it has been unmapped.
     *
     * @param message one line: which region, the errno
     */
    record MapFailed(String message) implements Mapping {}

    private UringSetup() {}

    /** Sets up a ring of {@code entries} SQEs (a power of two, 1..32768). */
    public static Result create(final Kernel kernel, final int entries) {
        if (entries < 1 || entries > 32768 || Integer.bitCount(entries) != 1) {
            throw new IllegalArgumentException("io_uring entries must be a power of two in [1, 32768], got "
                + entries);
        }
        ParamsDescriptor.check();
        SqeDescriptor.check();
        CqeDescriptor.check();
        final Arena arena = Arena.ofShared();
        final MemorySegment params = arena.allocate(ParamsDescriptor.SIZE, 8);
        int fd = -Errno.EINVAL;
        for (final int flags : FLAG_ATTEMPTS) {
            params.fill((byte) 0);
            params.set(JAVA_INT, ParamsDescriptor.FLAGS, flags);
            fd = kernel.ioUringSetup(entries, params.address());
            if (fd != -Errno.EINVAL) {
                break;
            }
        }
        if (fd < 0) {
            arena.close();
            return new Unavailable(-fd, "io_uring_setup failed: " + Errno.ofResult(fd) + " (" + cause(-fd) + ")");
        }
        final int features = params.get(JAVA_INT, ParamsDescriptor.FEATURES);
        if ((features & FEATURES_NEEDED) != FEATURES_NEEDED) {
            kernel.close(fd);
            arena.close();
            return new Unavailable(0, "io_uring lacks features realio needs (SUBMIT_STABLE, EXT_ARG, NODROP; "
                + "kernel 5.11 or newer): got 0x" + Integer.toHexString(features));
        }
        return switch (map(kernel, fd, params, (features & FEAT_SINGLE_MMAP) != 0)) {
            case MapFailed(final String message) -> {
                kernel.close(fd);
                arena.close();
                yield new Unavailable(Errno.ENOMEM, message);
            }
            case RingMaps maps -> new Ready(new IoUring(kernel, fd, params, maps, arena));
        };
    }

    private static String cause(final int errno) {
        return switch (errno) {
            case Errno.EPERM -> "io_uring is disabled: kernel.io_uring_disabled sysctl, or a seccomp filter";
            case Errno.ENOSYS -> "the kernel has no io_uring, or a seccomp filter hides it";
            case Errno.ENOMEM -> "not enough locked memory for the rings (RLIMIT_MEMLOCK)";
            case Errno.EMFILE -> "too many open files";
            case Errno.EINVAL -> "the kernel rejects every flag set tried";
            default -> "unexpected";
        };
    }

    /**
     * Maps the rings: the mappings, or what failed after unmapping what was mapped. The segments over the mappings
     * are made with {@code reinterpret}, a restricted method: each is sized to exactly what was mapped, from the
     * sizes the kernel reported, and unmapped only by {@link RingMaps#unmap} when the ring closes.
     */
    @SuppressWarnings("restricted")
    private static Mapping map(final Kernel kernel, final int fd, final MemorySegment params, final boolean single) {
        final long sqOff = ParamsDescriptor.SQ_OFF;
        final long cqOff = ParamsDescriptor.CQ_OFF;
        final int sqEntries = params.get(JAVA_INT, ParamsDescriptor.SQ_ENTRIES);
        final int cqEntries = params.get(JAVA_INT, ParamsDescriptor.CQ_ENTRIES);
        long sqBytes = params.get(JAVA_INT, sqOff + ParamsDescriptor.SQ_OFF_ARRAY) + 4L * sqEntries;
        long cqBytes = params.get(JAVA_INT, cqOff + ParamsDescriptor.CQ_OFF_CQES) + (long) CqeDescriptor.SIZE
            * cqEntries;
        if (single) {
            sqBytes = Math.max(sqBytes, cqBytes);
            cqBytes = sqBytes;
        }
        final int prot = PROT_READ | PROT_WRITE;
        final int flags = MAP_SHARED | MAP_POPULATE;
        final long sq = kernel.mmap(sqBytes, prot, flags, fd, UringConstants.OFF_SQ_RING);
        if (sq < 0) {
            return new MapFailed("mmap of the SQ ring failed: " + Errno.ofResult(sq));
        }
        long cq = sq;
        if (!single) {
            cq = kernel.mmap(cqBytes, prot, flags, fd, UringConstants.OFF_CQ_RING);
            if (cq < 0) {
                kernel.munmap(sq, sqBytes);
                return new MapFailed("mmap of the CQ ring failed: " + Errno.ofResult(cq));
            }
        }
        final long sqeBytes = (long) SqeDescriptor.SIZE * sqEntries;
        final long sqes = kernel.mmap(sqeBytes, prot, flags, fd, UringConstants.OFF_SQES);
        if (sqes < 0) {
            kernel.munmap(sq, sqBytes);
            if (!single) {
                kernel.munmap(cq, cqBytes);
            }
            return new MapFailed("mmap of the SQE array failed: " + Errno.ofResult(sqes));
        }
        return new RingMaps(MemorySegment.ofAddress(sq).reinterpret(sqBytes),
            MemorySegment.ofAddress(cq).reinterpret(cqBytes), MemorySegment.ofAddress(sqes).reinterpret(sqeBytes),
            single);
    }
}
