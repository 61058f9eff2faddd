package dev.kvtier.cli;

import dev.kvtier.cli.signoff.Results;
import dev.kvtier.cli.signoff.SignoffReport;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.bench.FioRunner;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.HostCalibration;
import dev.kvtier.realio.calibrate.Measurement;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Profiles;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kvtier signoff SCENARIO --device PATH}: the scenario in real I/O, then in virtual time on a device profile
 * and a host cost profile calibrated on this machine, then fio on the same file; the simulator's fidelity per
 * phase; a comparison with the newest earlier result; {@code results/<date>-<scenario>-<host>.json}, {@code .md} and
 * plots. Exit 4 when a threshold of the scenario's {@code [signoff]} fails, 1 when an invariant failed. The L2 file and
 * its index are claimed as a real run claims them, and the calibration's scratch file ({@code DEVICE.calibration}) as a
 * scratch file; the scratch file is removed at the end only if this sign-off created it.
 */
@Command(name = "signoff", mixinStandardHelpOptions = true,
    description = "Real run + calibrated simulation + fio on one disk; write results/ and check the thresholds.")
public final class SignoffCommand implements Callable<Integer> {
    /** Wall-time limit of the real run. */
    private static final long REAL_RUN_TIMEOUT_NS = 3_600_000_000_000L;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the L2 file or block device")
    Path device;

    @Option(names = "--io", description = "auto, uring or filechannel (default auto)")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--seed", description = "seed of both runs (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a scenario key in both runs")
    List<String> sets = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR", description = "where results go (default kvtier-out/signoff; "
        + "pass --results results to add them to the committed ones)")
    Path results = Outputs.ROOT.resolve("signoff");

    @Option(names = "--profile", paramLabel = "DEVICE.toml", description = "use this device profile, do not calibrate")
    Path profile;

    @Option(names = "--quick-calibration", description = "calibrate the disk in seconds rather than a minute")
    boolean quickCalibration;

    @Option(names = "--no-fio", description = "skip fio even when it is installed")
    boolean noFio;

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        final PrintStream out = System.out;
        final Scenario sc;
        try {
            sc = ScenarioLoader.load(scenario, sets);
            if (profile != null) {
                Profiles.device("signoff", "--profile", profile.toAbsolutePath().toString(), null);
            }
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final String bad = badOutputs();
        if (bad != null) {
            return refuse(bad);
        }
        final String host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
        final String base = LocalDate.now(ZoneId.systemDefault()) + "-" + sc.name() + "-" + host;
        final Claim scratch;
        try {
            scratch = profile != null ? null : Outputs.claimScratch(scratchPath(), "calibration scratch file",
                forceOptions.force(), spec);
        } catch (final ClaimRefused e) {
            return refuse(e.getMessage());
        }
        try {
            return signoff(sc, host, base, scratch, out);
        } finally {
            if (scratch != null) {
                // The scratch file is removed if this sign-off created it; one that was there stays.
                scratch.abandon();
            }
        }
    }

    private int signoff(final Scenario sc, final String host, final String base, final Claim scratch,
                        final PrintStream out) throws IOException {
        out.println("== step 1 of 4: real run of " + sc.name() + " on " + device);
        final RunReport real;
        try (Progress progress = Progress.forRun(sc, RunMode.REAL, out);
             RealRun run = RealRun.open(sc.spec(), seed, new RealTarget(device, null, false, io, REAL_RUN_TIMEOUT_NS,
                 forceOptions.force(), Invocation.holder(spec)), progress.sinks(), out)) {
            real = run.run().report();
        } catch (final BadDevice e) {
            return refuse(e.getMessage());
        }
        RunCommand.summary(out, real, real.elapsedNanos());
        final Path deviceToml = profile != null ? profile : results.resolve(base + "-device.toml");
        if (scratch != null) {
            out.println("== step 2 of 4: calibrating " + scratch.path() + " -> " + deviceToml);
            final int rc = DeviceCalibration.run(scratch.path(), scratch.baseOffset(), deviceToml, host + "-disk",
                quickCalibration, out, System.err);
            if (rc != 0) {
                return ExitCodes.BAD_INPUT;
            }
        }
        final Path hostToml = results.resolve(base + "-host.toml");
        out.println("== step 3 of 4: measuring this machine's core -> " + hostToml);
        final HostCostProfile hostProfile = HostCalibration.measure(host + "-core", quickCalibration ? 2 : 6);
        OutputFile.writeString(hostToml, HostCalibration.toml(hostProfile));
        out.println("== step 4 of 4: simulated run on " + deviceToml + " and " + hostToml);
        final List<String> simSets = new ArrayList<>(sets);
        simSets.add("sim.device=" + deviceToml.toAbsolutePath());
        simSets.add("sim.host=" + hostToml.toAbsolutePath());
        final Scenario simSc;
        final DeviceProfile deviceProfile;
        try {
            simSc = ScenarioLoader.load(scenario, simSets);
            deviceProfile = Profiles.device("signoff", "--profile", deviceToml.toAbsolutePath().toString(), null);
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final long simStart = System.nanoTime();
        final RunReport sim;
        try (Progress progress = Progress.forRun(simSc, RunMode.VIRTUAL, out)) {
            sim = new SimRun(simSc.spec(), simSc.sim(), seed, progress.sinks()).run();
        }
        RunCommand.summary(out, sim, System.nanoTime() - simStart);
        return finish(sc, host, base, real, sim, deviceProfile, hostProfile, fio(sc, out), out);
    }

    /** The calibration's scratch file: {@code DEVICE.calibration}. */
    private Path scratchPath() {
        return device.resolveSibling(device.getFileName() + ".calibration");
    }

    /** Null, or why the results cannot go where asked. */
    private String badOutputs() {
        if (Files.exists(results) && !Files.isDirectory(results)) {
            return "--results " + results + " is a file; name a directory";
        }
        final String check = OutputFile.check(results.resolve("signoff.json"), "--results", List.of(device));
        return check == null ? null : check.replace(results.resolve("signoff.json").toString(), results.toString());
    }

    private static int refuse(final String message) {
        System.err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    private SignoffReport.Fio fio(final Scenario sc, final PrintStream out) {
        if (noFio || !FioRunner.available()) {
            out.println("fio: not run (" + (noFio ? "--no-fio" : "not installed: apt-get install fio") + ")");
            return null;
        }
        final long size = sc.spec().core().l2Bytes();
        // fio writes the L2 data file after kvtier's header, as the run did.
        final DeviceFile region = new DeviceFile(device, HeaderLayout.BYTES, size);
        final Optional<Measurement> w = FioRunner.run(region, IoOp.WRITE, 1 << 20, 16, 5, true);
        final Optional<Measurement> r = FioRunner.run(region, IoOp.READ, 1 << 20, 16, 5, true);
        if (w.isEmpty() || r.isEmpty()) {
            return null;
        }
        out.printf("fio sequential 1 MiB depth 16: write %.2f GB/s, read %.2f GB/s%n", w.get().bytesPerSec() / 1e9,
            r.get().bytesPerSec() / 1e9);
        return new SignoffReport.Fio(w.get().bytesPerSec(), r.get().bytesPerSec());
    }

    private int finish(final Scenario sc, final String host, final String base, final RunReport real,
                       final RunReport sim, final DeviceProfile deviceProfile, final HostCostProfile hostProfile,
                       final SignoffReport.Fio fio, final PrintStream out) throws IOException {
        final double store = Results.storeBytesPerSec(real);
        final SignoffReport.Previous previous = Results.previous(results, sc.name(), host, base + ".json", store);
        final List<String> reasons = Results.reasons(real, sim, store, previous, sc.signoff());
        final SignoffReport report = new SignoffReport(sc.name(), host,
            LocalDate.now(ZoneId.systemDefault()).toString(), seed,
            device.toString(), real, sim, deviceProfile, hostProfile, fio, Results.fidelity(real, sim), store,
            Results.storeBytesPerSec(sim), fio == null ? null : store / fio.seqWriteBytesPerSec(), previous,
            sc.signoff(), reasons.isEmpty(), reasons);
        for (final Path p : Results.write(report, results, base)) {
            out.println("wrote " + p);
        }
        for (final SignoffReport.PhaseFidelity p : report.phases()) {
            out.printf("fidelity %-6s simulated %.3f s / real %.3f s = %.2f%n", p.name(), p.simNanos() / 1e9,
                p.realNanos() / 1e9, p.fidelity());
        }
        out.println(report.pass() ? "SIGN-OFF PASS" : "SIGN-OFF FAIL: " + String.join("; ", reasons));
        if (!real.ok() || !sim.ok()) {
            return ExitCodes.INVARIANT;
        }
        return report.pass() ? ExitCodes.OK : ExitCodes.GATE;
    }
}
