package dev.kvtier.realio.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens the two devices of a real run as one {@link DevicePair}: the L2 device and the crash-safe index's device (by
 * default {@code DEVICE.index}), the index opened with the same kind of I/O as the L2 device got (io_uring, or the
 * FileChannel device), each pre-sized and opened with O_DIRECT. Says what it opened on the run's log.
 */
final class RealDevices {
    private RealDevices() {
    }

    /** Opens both devices for a core of {@code config}; nothing stays open when it throws. */
    static DevicePair open(final CoreConfig config, final RealTarget target, final PrintStream log) throws BadDevice {
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
        final PolledDevice device = open("device", target.device(), config.l2Bytes(), config.concurrentIos(),
            target.io(), log);
        final PolledDevice index;
        try {
            // The index takes the kind of I/O the L2 device got (after any fallback): one notice, one behaviour.
            index = open("index", indexPath, RealRun.indexDeviceBytes(config), 1,
                device.kind().equals("io_uring") ? IoChoice.URING : IoChoice.FILECHANNEL, log);
        } catch (final BadDevice e) {
            device.close();
            throw e;
        }
        try {
            syncDirectoryOf(newDevice, target.device());
            syncDirectoryOf(newIndex, indexPath);
        } catch (final BadDevice e) {
            index.close();
            device.close();
            throw e;
        }
        log.printf("devices opened and sized in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        return new DevicePair(device, index);
    }

    private static PolledDevice open(final String role, final Path path, final long sizeBytes, final int depth,
                                     final IoChoice choice, final PrintStream log) throws BadDevice {
        final OpenResult opened = Devices.open(path, sizeBytes, depth, choice);
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
