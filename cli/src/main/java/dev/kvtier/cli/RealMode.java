package dev.kvtier.cli;

import dev.kvtier.cli.real.RealRun;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens the devices and native memory for {@code kvtier run --mode real} and closes them after the run: the L2 device
 * and the crash-safe index's device (by default {@code DEVICE.index}), the index opened with the same kind of I/O as
 * the L2 device got (io_uring, or the FileChannel device), each pre-sized and opened with O_DIRECT.
 */
final class RealMode {
    /** The device cannot be used (one line: path, call, errno). */
    static final class BadDevice extends Exception {
        private static final long serialVersionUID = 1L;

        BadDevice(final String message) {
            super(message);
        }
    }

    /**
     * Where and how a real run does I/O.
     *
     * @param device         the L2 file or block device
     * @param indexDevice    the index file or block device, or null for {@code device + ".index"}
     * @param recover        recover the index from {@code indexDevice} (else format a fresh one)
     * @param io             auto, uring or filechannel
     * @param timeoutSeconds wall-time limit of the workload (and of opening the index)
     */
    record Options(Path device, Path indexDevice, boolean recover, String io, long timeoutSeconds) {
        Path indexPath() {
            return indexDevice != null ? indexDevice : defaultIndexPath(device);
        }
    }

    private RealMode() {
    }

    /** The index device's default path: the L2 device's path with {@code .index} appended. */
    static Path defaultIndexPath(final Path device) {
        return device.resolveSibling(device.getFileName() + ".index");
    }

    static IoChoice choice(final String io) throws BadDevice {
        try {
            return IoChoice.valueOf(io.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new BadDevice("--io must be auto, uring or filechannel, got '" + io + "'");
        }
    }

    private static PolledDevice open(final String role, final Path path, final long sizeBytes, final int depth,
                                     final IoChoice choice, final NativeMemory memory, final PrintStream out)
        throws BadDevice {
        final OpenResult opened = Devices.open(path, sizeBytes, depth, choice, memory);
        return switch (opened) {
            case OpenResult.Failed f -> throw new BadDevice(role.equals("device") ? f.message()
                : "index device: " + f.message());
            case OpenResult.Opened o -> {
                out.println(role + " " + path + " (" + o.device().getClass().getSimpleName() + ", " + sizeBytes
                    + " B, depth " + depth + ")");
                yield o.device();
            }
        };
    }

    static RealRun.Result run(final Scenario sc, final long seed, final Options options,
                              final JournalRecording recording, final PrintStream out) throws BadDevice {
        try {
            return runOpen(sc, seed, options, recording, out);
        } finally {
            recording.close();
        }
    }

    private static RealRun.Result runOpen(final Scenario sc, final long seed, final Options options,
                                          final JournalRecording recording, final PrintStream out) throws BadDevice {
        final Path indexPath = options.indexPath();
        if (indexPath.toAbsolutePath().normalize().equals(options.device().toAbsolutePath().normalize())) {
            throw new BadDevice("--index-device must be another file than --device (" + indexPath + ")");
        }
        final IoChoice choice = choice(options.io());
        if (!options.recover()) {
            discardIndexFile(indexPath);
        }
        final boolean newDevice = !Files.exists(options.device());
        final boolean newIndex = !Files.exists(indexPath);
        final long t0 = System.nanoTime();
        // The devices move this memory's bytes; it is closed after them.
        final NativeMemory memory = new NativeMemory(RealRun.memoryBytes(sc.spec()));
        final PolledDevice device;
        try {
            device = open("device", options.device(), sc.spec().core().l2Bytes(), sc.spec().core().concurrentIos(),
                choice, memory, out);
        } catch (final BadDevice e) {
            memory.close();
            throw e;
        }
        final PolledDevice index;
        try {
            // The index takes the kind of I/O the L2 device got (after any fallback): one notice, one behaviour.
            index = open("index", indexPath, RealRun.indexDeviceBytes(sc.spec().core()), 1,
                device.kind().equals("io_uring") ? IoChoice.URING : IoChoice.FILECHANNEL, memory, out);
        } catch (final BadDevice e) {
            device.close();
            memory.close();
            throw e;
        }
        try {
            syncDirectoryOf(newDevice, options.device());
            syncDirectoryOf(newIndex, indexPath);
        } catch (final BadDevice e) {
            index.close();
            device.close();
            memory.close();
            throw e;
        }
        out.printf("devices opened and sized in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        try (memory; device; index) {
            return new RealRun(sc.spec(), seed, device, index, memory, options.recover()).run(loop -> {
                recording.start(loop);
                return recording.sinks();
            }, options.timeoutSeconds() * 1_000_000_000L, opened -> out.println(describe(opened, indexPath)));
        } catch (final RealRun.IndexUnusable e) {
            throw new BadDevice("index device " + indexPath + ": " + e.getMessage());
        }
    }

    /**
     * Without {@code --recover} the old index is discarded: a regular file is emptied, so the fresh index is formatted
     * on zeros (epoch 1), exactly as in virtual time, and a journal of the run replays. A block device is left as it
     * is (the format then takes an epoch above the old one's, so no old record is ever read as new).
     */
    private static void discardIndexFile(final Path indexPath) throws BadDevice {
        if (!Files.isRegularFile(indexPath)) {
            return;
        }
        try (FileChannel ch = FileChannel.open(indexPath, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        } catch (final IOException e) {
            throw new BadDevice("index device: cannot empty " + indexPath + ": " + e.getMessage());
        }
    }

    /**
     * Makes the directory entry of a file the run just created durable (fsync of its directory), so that a FLUSH of
     * the file, which makes its data and size durable, is enough for a power loss to keep it.
     */
    private static void syncDirectoryOf(final boolean created, final Path file) throws BadDevice {
        if (!created) {
            return;
        }
        final Path parent = file.toAbsolutePath().getParent();
        try (FileChannel dir = FileChannel.open(parent, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (final IOException e) {
            throw new BadDevice("cannot make the new file " + file + " durable (fsync of " + parent + "): " + e);
        }
    }

    /** One line: how the index opened. */
    static String describe(final RealRun.IndexOpen o, final Path indexPath) {
        if (!o.recover()) {
            return String.format(Locale.ROOT, "index %s formatted in %.1f ms", indexPath, o.openNanos() / 1e6);
        }
        return String.format(Locale.ROOT, "index %s %s: %d chunks, %d log records, %d B read, in %.1f ms", indexPath,
            o.fromDisk() ? "recovered" : "held no checkpoint (started empty)", o.chunks(), o.records(), o.bytesRead(),
            o.openNanos() / 1e6);
    }
}
