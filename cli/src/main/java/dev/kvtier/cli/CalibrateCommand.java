package dev.kvtier.cli;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kvtier calibrate}: measures a disk (read and write, 4 KiB to 8 MiB, depths 1 to 64, with io_uring and
 * O_DIRECT) into a device profile, and this machine's core into a host cost profile, both in the TOML shape a
 * scenario's {@code sim.device} and {@code sim.host} accept, so the simulator can stand in for this disk and host.
 * The scratch file is claimed as kvtier's ({@link Outputs#claimScratch}); the profiles go under {@code kvtier-out/}
 * unless named, each written whole or not at all.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Measure a disk and this machine's core into simulator profiles (device and host cost TOML).")
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH",
        description = "a scratch file (created) or a block device on the disk to measure; absent, empty or a kvtier "
            + "scratch file unless --force; its contents are lost")
    Path device;

    @Option(names = "--out", paramLabel = "PROFILE", description = "device profile to write (default "
        + "kvtier-out/calibrate/device.toml)")
    Path out = Outputs.defaultPath("calibrate", "device.toml");

    @Option(names = "--host-out", paramLabel = "PROFILE", description = "host cost profile (default "
        + "kvtier-out/calibrate/host.toml)")
    Path hostOut = Outputs.defaultPath("calibrate", "host.toml");

    @Option(names = "--name", description = "profile name (default: calibrated)")
    String name = "calibrated";

    @Option(names = "--quick", description = "a few seconds instead of about a minute (fewer cells, shorter)")
    boolean quick;

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String bad = Outputs.checkName("--name", name);
        bad = bad != null ? bad : OutputFile.check(out, "--out", List.of(device));
        bad = bad != null ? bad : OutputFile.check(hostOut, "--host-out", List.of(device, out));
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Claim claim;
        try {
            claim = Outputs.claimScratch(device, "--device", forceOptions.force(), spec);
        } catch (final ClaimRefused e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            System.out.println("calibrating " + device + " (" + (quick ? "quick plan, a few seconds" : "full plan, "
                + "about half a minute") + ")");
            final int rc = DeviceCalibration.run(device, claim.baseOffset(), out, name, quick, System.out,
                System.err);
            if (rc != 0) {
                claim.abandon();
                return ExitCodes.BAD_INPUT;
            }
            return host();
        } finally {
            claim.close();
        }
    }

    private int host() {
        System.out.println("measuring this machine's core (per span, entry, I/O and call, memcpy bandwidth)");
        final HostCostProfile host = HostCalibration.measure(name + "-host", quick ? 2 : 6);
        try {
            OutputFile.writeString(hostOut, HostCalibration.toml(host));
        } catch (final IOException e) {
            System.err.println("kvtier: " + OutputFile.describe(hostOut, e));
            return ExitCodes.BAD_INPUT;
        }
        System.out.printf("host %s: span %d ns, entry %d ns, I/O %d+%d ns, call %d ns, memcpy %.2f GB/s -> %s%n",
            host.name(), host.spanNs(), host.entryNs(), host.ioSubmitNs(), host.ioCompleteNs(), host.requestNs(),
            host.memcpyBytesPerSec() / 1e9, hostOut);
        return ExitCodes.OK;
    }
}
