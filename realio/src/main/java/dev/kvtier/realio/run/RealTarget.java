package dev.kvtier.realio.run;

import dev.kvtier.realio.device.IoChoice;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how a real run does I/O.
 *
 * @param device      the L2 file or block device
 * @param indexDevice the crash-safe index's file or block device, or null for {@code device + ".index"}
 * @param recover     recover the index from {@code indexDevice} (else format a fresh one)
 * @param io          io_uring, the FileChannel device, or io_uring with a fallback
 * @param timeoutNs   wall-time limit of the workload (and of opening the index, and of the shutdown)
 */
public record RealTarget(Path device, Path indexDevice, boolean recover, IoChoice io, long timeoutNs) {
    public RealTarget {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(io, "io");
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
    }

    /** The index device's path: {@code indexDevice}, or the L2 device's path with {@code .index} appended. */
    public Path indexPath() {
        return indexDevice != null ? indexDevice : device.resolveSibling(device.getFileName() + ".index");
    }
}
