package dev.kvtier.realio.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The devices of a real run and the native memory whose bytes they move: the L2 device and the crash-safe index's
 * device (by default {@code DEVICE.index}) as one {@link DevicePair}, the index opened with the same kind of I/O as the
 * L2 device got (io_uring, or the FileChannel device), each pre-sized and opened with O_DIRECT. The memory is
 * allocated before the devices and released after them. Says what it opened on the run's log.
 *
 * @param memory  the run's native memory (L1 pool, staging, engine KV, the index buffer)
 * @param devices the L2 and the index device
 */
record RealDevices(NativeMemory memory, DevicePair devices) implements AutoCloseable {

    /** Closes the index and the data device, then releases the memory. */
    @Override
    public void close() {
        try {
            devices.close();
        } finally {
            memory.close();
        }
    }

    /**
     * Allocates {@code memoryBytes} of native memory and opens both devices for a core of {@code config} over it;
     * nothing stays open when it throws.
     */
    static RealDevices open(final CoreConfig config, final long memoryBytes, final RealTarget target,
                            final PrintStream log) throws BadDevice {
        final Path indexPath = target.indexPath();
        if (indexPath.toAbsolutePath().normalize().equals(target.device().toAbsolutePath().normalize())) {
            throw new BadDevice("--index-device must be another file than --device (" + indexPath + ")");
        }
        if (!target.recover()) {
            discardIndexFile(indexPath);
        }
        final boolean newDevice = !Files.exists(target.device());
        final boolean newIndex = !Files.exists(indexPath);
        final long t0 = System.nanoTime();
        // The devices move this memory's bytes; it is closed after them.
        final NativeMemory memory = new NativeMemory(memoryBytes);
        final PolledDevice device;
        try {
            device = open("device", target.device(), config.l2Bytes(), config.concurrentIos(), target.io(), memory,
                log);
        } catch (final BadDevice e) {
            memory.close();
            throw e;
        }
        final PolledDevice index;
        try {
            // The index takes the kind of I/O the L2 device got (after any fallback): one notice, one behaviour.
            index = open("index", indexPath, RealRun.indexDeviceBytes(config), 1,
                device.kind().equals("io_uring") ? IoChoice.URING : IoChoice.FILECHANNEL, memory, log);
        } catch (final BadDevice e) {
            device.close();
            memory.close();
            throw e;
        }
        try {
            syncDirectoryOf(newDevice, target.device());
            syncDirectoryOf(newIndex, indexPath);
        } catch (final BadDevice e) {
            index.close();
            device.close();
            memory.close();
            throw e;
        }
        log.printf("devices opened and sized in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        return new RealDevices(memory, new DevicePair(device, index));
    }

    private static PolledDevice open(final String role, final Path path, final long sizeBytes, final int depth,
                                     final IoChoice choice, final NativeMemory memory,
                                     final PrintStream log) throws BadDevice {
        final OpenResult opened = Devices.open(path, sizeBytes, depth, choice, memory);
        return switch (opened) {
            case OpenResult.Failed f -> throw new BadDevice(role.equals("device") ? f.message()
                : "index device: " + f.message());
            case OpenResult.Opened o -> {
                log.println(role + " " + path + " (" + o.device().getClass().getSimpleName() + ", " + sizeBytes
                    + " B, depth " + depth + ")");
                yield o.device();
            }
        };
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
}
