package dev.kvtier.realio.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.FileKind;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.record.DeviceRole;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The devices of a real run and the native memory whose bytes they move: the L2 device and the crash-safe index's
 * device (by default {@code DEVICE.index}) as one {@link DevicePair}, the index opened with the same kind of I/O as the
 * L2 device got (io_uring, or the FileChannel device), each pre-sized and opened with O_DIRECT. Both paths are
 * claimed first ({@link Claim}): checked to be absent, empty or kvtier's own file of their kind (the index paired
 * with this data file), locked for the run's life, and stamped with kvtier's header; the devices address their bytes
 * after it. The memory is allocated after the claims and before the devices, and released after them; the locks are
 * released last. Says what it does on the run's log.
 *
 * @param memory  the run's native memory (L1 pool, staging, engine KV, the index buffer)
 * @param devices the L2 and the index device
 * @param data    the claim on the L2 file
 * @param index   the claim on the index file
 */
record RealDevices(NativeMemory memory, DevicePair devices, Claim data, Claim index) implements AutoCloseable {

    /** Closes the index and the data device, releases the memory, then the locks. */
    @Override
    public void close() {
        try {
            devices.close();
        } finally {
            try {
                memory.close();
            } finally {
                index.close();
                data.close();
            }
        }
    }

    /**
     * Claims both paths, allocates {@code memoryBytes} of native memory and opens both devices for a core of
     * {@code config} over it; nothing stays open, and no file it created stays, when it throws.
     */
    static RealDevices open(final Kernel kernel, final CoreConfig config, final long memoryBytes,
                            final RealTarget target, final PrintStream log) throws BadDevice {
        return open(kernel, config, memoryBytes, target, log, DeviceTap.NONE);
    }

    /** As above, with {@code tap} put between the core and each opened device. */
    static RealDevices open(final Kernel kernel, final CoreConfig config, final long memoryBytes,
                            final RealTarget target, final PrintStream log, final DeviceTap tap) throws BadDevice {
        final Path indexPath = target.indexPath();
        if (samePath(indexPath, target.device())) {
            throw new BadDevice("--index-device must be another file than --device (" + indexPath + ")");
        }
        final long t0 = System.nanoTime();
        // Both paths are judged before either is written: a refused index leaves the data file as it was.
        final Claim data = claim(kernel, new Claim.Request(target.device(), "--device", FileKind.DATA,
            target.recover(), target.force(), 0, target.holder()), null);
        final Claim index = claim(kernel, new Claim.Request(indexPath, "--index-device", FileKind.INDEX,
            target.recover(), target.force(), data.header().creationId(), target.holder()), data);
        try {
            data.stamp();
            index.stamp();
            if (!target.recover()) {
                // A fresh index is formatted on zeros (epoch 1), exactly as in virtual time, so its journal replays.
                index.discardData();
            }
            syncDirectoryOf(data);
            syncDirectoryOf(index);
            log.printf(Locale.ROOT, "allocating %.1f MiB of native memory (every page is touched up front)%n",
                memoryBytes / (double) (1 << 20));
            final RealDevices opened = openDevices(kernel, config, memoryBytes, target, data, index, log, tap);
            log.printf(Locale.ROOT, "devices claimed, opened and sized in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            return opened;
        } catch (final ClaimRefused e) {
            index.abandon();
            data.abandon();
            throw new BadDevice(e.getMessage());
        } catch (final BadDevice | RuntimeException | Error e) {
            index.abandon();
            data.abandon();
            throw e;
        }
    }

    private static RealDevices openDevices(final Kernel kernel, final CoreConfig config, final long memoryBytes,
                                           final RealTarget target, final Claim data, final Claim index,
                                           final PrintStream log, final DeviceTap tap) throws BadDevice {
        // The devices move this memory's bytes; it is closed after them.
        final NativeMemory memory = new NativeMemory(memoryBytes);
        final PolledDevice device;
        try {
            device = open(kernel, "device", new DeviceFile(data.path(), data.baseOffset(), config.l2Bytes()),
                config.concurrentIos(), target.io(), memory, log);
        } catch (final BadDevice | RuntimeException e) {
            memory.close();
            throw e;
        }
        final PolledDevice indexDevice;
        try {
            // The index takes the kind of I/O the L2 device got (after any fallback): one notice, one behaviour.
            indexDevice = open(kernel, "index", new DeviceFile(index.path(), index.baseOffset(),
                RealRun.indexDeviceBytes(config)), 1,
                device.kind().equals("io_uring") ? IoChoice.URING
                    : IoChoice.FILECHANNEL,
                memory, log);
        } catch (final BadDevice | RuntimeException e) {
            device.close();
            memory.close();
            throw e;
        }
        return new RealDevices(memory, new DevicePair(tap.tap(DeviceRole.DATA, device, memory),
            tap.tap(DeviceRole.INDEX, indexDevice, memory)), data, index);
    }

    private static Claim claim(final Kernel kernel, final Claim.Request request,
                               final Claim before) throws BadDevice {
        try {
            return Claim.decide(kernel, request);
        } catch (final ClaimRefused e) {
            if (before != null) {
                before.abandon();
            }
            throw new BadDevice(e.getMessage());
        }
    }

    private static PolledDevice open(final Kernel kernel, final String role, final DeviceFile file, final int depth,
                                     final IoChoice choice, final NativeMemory memory,
                                     final PrintStream log) throws BadDevice {
        log.println("opening " + role + " " + file.path() + " (" + file.sizeBytes() + " B after kvtier's "
            + file.baseOffset() + " B header; a new file is pre-sized)");
        final OpenResult opened = Devices.open(kernel, file, depth, choice, memory, System.err);
        return switch (opened) {
            case OpenResult.Failed f -> throw new BadDevice(role.equals("device") ? f.message()
                : "index device: " + f.message());
            case OpenResult.Opened o -> {
                log.println(role + " " + file.path() + " (" + o.device().getClass().getSimpleName() + ", "
                    + file.sizeBytes() + " B, depth " + depth + ")");
                yield o.device();
            }
        };
    }

    private static boolean samePath(final Path a, final Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
        } catch (final IOException e) {
            return false;
        }
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /**
     * Makes the directory entry of a file the run just created durable (fsync of its directory), so that a FLUSH of
     * the file, which makes its data and size durable, is enough for a power loss to keep it.
     */
    private static void syncDirectoryOf(final Claim claim) throws BadDevice {
        if (!claim.created()) {
            return;
        }
        final Path parent = claim.path().toAbsolutePath().getParent();
        try (FileChannel dir = FileChannel.open(parent, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (final IOException e) {
            throw new BadDevice("cannot make the new file " + claim.path() + " durable (fsync of " + parent + "): "
                + e);
        }
    }
}
