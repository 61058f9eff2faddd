package dev.kvtier.realio.run;

import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
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
 * @param force       how far the run may write over files that are not kvtier's ({@code --force},
 *                    {@code --force-wipe})
 * @param holder      who runs (written into the headers of the files it claims, named when a second run is refused)
 */
public record RealTarget(Path device, Path indexDevice, boolean recover, IoChoice io, long timeoutNs, Force force,
                         Holder holder) {
    public RealTarget {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(force, "force");
        Objects.requireNonNull(holder, "holder");
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
    }

    /** Without force, held by this process as {@code kvtier run}. */
    public RealTarget(final Path device, final Path indexDevice, final boolean recover, final IoChoice io,
                      final long timeoutNs) {
        this(device, indexDevice, recover, io, timeoutNs, Force.NONE, Holder.current("kvtier run"));
    }

    /** The index device's path: {@code indexDevice}, or the L2 device's path with {@code .index} appended. */
    public Path indexPath() {
        return indexDevice != null ? indexDevice : device.resolveSibling(device.getFileName() + ".index");
    }
}
