package dev.kvtier.realio.device;

import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Chooses and opens the L2 device. AUTO takes io_uring and falls back to the FileChannel device, with a one-line
 * notice, only when io_uring itself is unavailable (EPERM under seccomp or the io_uring_disabled sysctl, ENOSYS,
 * a kernel too old); a file system without O_DIRECT, or a file that cannot be opened, fails whatever the choice,
 * because the fallback would fail the same way. Either device is opened with the memory whose regions it moves
 * bytes of (the pairing: it resolves each region of a port request through that memory).
 */
public final class Devices {
    /** Requests outstanding at most, unless the caller says otherwise. */
    public static final int MAX_REQUESTS_DEFAULT = 256;

    private Devices() {}

    /** Opens with the real kernel, printing a fallback notice to stderr. */
    public static OpenResult open(final Path path, final long sizeBytes, final int depth, final IoChoice choice,
                                  final RegionResolver<NativeRegion> memory) {
        return open(LibcKernel.create(), path, sizeBytes, depth, choice, memory, System.err);
    }

    /**
     * Opens {@code path} ({@code sizeBytes}, a multiple of 4096) with {@code depth} operations at the device.
     *
     * @param kernel  the system-call layer io_uring uses (a test may substitute one)
     * @param memory  the native memory whose regions the device moves bytes of
     * @param notices where the one-line fallback notice goes
     */
    public static OpenResult open(final Kernel kernel, final Path path, final long sizeBytes, final int depth,
                                  final IoChoice choice, final RegionResolver<NativeRegion> memory,
                                  final PrintStream notices) {
        return open(kernel, DeviceFile.whole(path, sizeBytes), depth, choice, memory, notices);
    }

    /**
     * Opens the device {@code file} describes with {@code depth} operations at the device: its offsets land from the
     * file's base offset on (kvtier's header lies before it).
     *
     * @param kernel  the system-call layer (a test may substitute one)
     * @param memory  the native memory whose regions the device moves bytes of
     * @param notices where the one-line fallback notice goes
     */
    public static OpenResult open(final Kernel kernel, final DeviceFile file, final int depth, final IoChoice choice,
                                  final RegionResolver<NativeRegion> memory, final PrintStream notices) {
        final int maxRequests = Math.max(MAX_REQUESTS_DEFAULT, depth);
        return switch (choice) {
            case URING -> uring(kernel, file, depth, maxRequests, memory);
            case FILECHANNEL -> FileChannelDevice.open(file, Math.min(depth, 64), maxRequests, memory);
            case AUTO -> {
                final OpenResult uring = uring(kernel, file, depth, maxRequests, memory);
                if (uring instanceof OpenResult.Failed f && f.failure() == OpenResult.Failure.URING_UNAVAILABLE) {
                    final String notice = "kvtier: io_uring unavailable (" + f.message()
                        + "); using the FileChannel device";
                    notices.println(notice);
                    final OpenResult fallback = FileChannelDevice.open(file, Math.min(depth, 64), maxRequests,
                        memory);
                    yield fallback instanceof OpenResult.Opened o ? new OpenResult.Opened(o.device(), notice)
                        : fallback;
                }
                yield uring;
            }
        };
    }

    private static OpenResult uring(final Kernel kernel, final DeviceFile file, final int depth,
                                    final int maxRequests, final RegionResolver<NativeRegion> memory) {
        return IoUringDevice.open(kernel, file, new IoUringLimits(depth, maxRequests, 64), memory);
    }
}
