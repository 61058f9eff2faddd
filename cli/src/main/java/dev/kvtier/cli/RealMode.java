package dev.kvtier.cli;

import dev.kvtier.cli.real.RealRun;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.RunReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/** Opens the device and native memory for {@code kvtier run --mode real} and closes them after the run. */
final class RealMode {
    /** The device cannot be used (one line: path, call, errno). */
    static final class BadDevice extends Exception {
        private static final long serialVersionUID = 1L;

        BadDevice(final String message) {
            super(message);
        }
    }

    private RealMode() {
    }

    static IoChoice choice(final String io) throws BadDevice {
        try {
            return IoChoice.valueOf(io.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new BadDevice("--io must be auto, uring or filechannel, got '" + io + "'");
        }
    }

    static PolledDevice open(final Path path, final long sizeBytes, final int depth, final String io,
                             final PrintStream out) throws BadDevice {
        final OpenResult opened = Devices.open(path, sizeBytes, depth, choice(io));
        return switch (opened) {
            case OpenResult.Failed f -> throw new BadDevice(f.message());
            case OpenResult.Opened o -> {
                out.println("device " + path + " (" + o.device().getClass().getSimpleName() + ", " + sizeBytes
                    + " B, depth " + depth + ")");
                yield o.device();
            }
        };
    }

    static RunReport run(final Scenario sc, final long seed, final Path path, final String io,
                         final long timeoutSeconds, final JournalRecording recording, final PrintStream out)
        throws BadDevice {
        final long t0 = System.nanoTime();
        final PolledDevice device = open(path, sc.spec().core().l2Bytes(), sc.spec().core().concurrentIos(), io, out);
        out.printf("device opened and sized in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        try (device; NativeMemory memory = new NativeMemory(RealRun.memoryBytes(sc.spec()))) {
            return new RealRun(sc.spec(), seed, device, memory).run(loop -> {
                recording.start(loop);
                return recording.sinks();
            }, timeoutSeconds * 1_000_000_000L);
        } finally {
            recording.close();
        }
    }
}
