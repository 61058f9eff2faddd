package dev.kvtier.cli;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.HostCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kvtier calibrate}: measures a disk (read and write, 4 KiB to 8 MiB, depths 1 to 64, with io_uring and
 * O_DIRECT) into a device profile, and this machine's core into a host cost profile, both in the TOML shape a
 * scenario's {@code sim.device} and {@code sim.host} accept, so the simulator can stand in for this disk and host.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Measure a disk and this machine's core into simulator profiles (device and host cost TOML).")
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH",
        description = "a scratch file (created) or a block device on the disk to measure; its contents are lost")
    Path device;

    @Option(names = "--out", paramLabel = "PROFILE", description = "device profile to write (default device.toml)")
    Path out = Path.of("device.toml");

    @Option(names = "--host-out", paramLabel = "PROFILE", description = "host cost profile (default host.toml)")
    Path hostOut = Path.of("host.toml");

    @Option(names = "--name", description = "profile name (default: calibrated)")
    String name = "calibrated";

    @Option(names = "--quick", description = "a few seconds instead of about a minute (fewer cells, shorter)")
    boolean quick;

    @Override
    public Integer call() {
        final int rc = DeviceCalibration.run(device, out, name, quick, System.out);
        if (rc != 0) {
            return ExitCodes.BAD_INPUT;
        }
        final HostCostProfile host = HostCalibration.measure(name + "-host", quick ? 2 : 6);
        try {
            Files.writeString(hostOut, HostCalibration.toml(host));
        } catch (final IOException e) {
            System.err.println("kvtier: cannot write " + hostOut + ": " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        System.out.printf("host %s: span %d ns, entry %d ns, I/O %d+%d ns, call %d ns, memcpy %.2f GB/s -> %s%n",
            host.name(), host.spanNs(), host.entryNs(), host.ioSubmitNs(), host.ioCompleteNs(), host.requestNs(),
            host.memcpyBytesPerSec() / 1e9, hostOut);
        return ExitCodes.OK;
    }
}
