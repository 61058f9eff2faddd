package dev.kvtier.cli;

import dev.kvtier.cli.signoff.Fidelity;
import dev.kvtier.cli.signoff.HostWork;
import dev.kvtier.cli.signoff.Results;
import dev.kvtier.cli.signoff.SignoffReport;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.calibrate.FioRunner;
import dev.kvtier.realio.calibrate.Measurement;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
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
 * {@code kvtier signoff SCENARIO --device PATH}: the scenario in real I/O {@code --repeat} times, then in virtual time
 * as many times on a device profile and a host cost profile calibrated on this machine (repetition i with seed + i in
 * both modes), then fio on the same file; every figure's median and spread, real and simulated, judged against the
 * scenario's fidelity bands ({@code [signoff]}, +-15 % by default); a comparison with the newest earlier result;
 * {@code kvtier-out/signoff/<date>-<scenario>-<host>.json} (or under {@code --results}), {@code .md} and plots. Exit
 * 4 when a threshold or a band fails or the calibrated profile is suspect, 1 when an invariant failed. The L2 file and
 * its index are claimed as a real run claims them, and the calibration's scratch file ({@code DEVICE.calibration}) as
 * a scratch file; the scratch file is removed at the end only if this sign-off created it. Results and profiles are
 * written whole or not at all.
 */
@Command(name = "signoff", mixinStandardHelpOptions = true,
    description = "Real runs + calibrated simulations + fio on one disk; write results/ and judge fidelity.")
public final class SignoffCommand implements Callable<Integer> {
    private static final long MIB = 1L << 20;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the L2 file or block device")
    Path device;

    @Option(names = "--io", description = "auto, uring or filechannel (default auto)")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--seed", description = "seed of the first repetition, real and simulated (default 1)")
    long seed = 1;

    @Option(names = "--repeat", description = "repetitions of the real and the simulated run (default 3)")
    int repeat = 3;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a scenario key in both runs")
    List<String> sets = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR", description = "where results go (default kvtier-out/signoff; "
        + "pass --results results to add them to the committed ones)")
    Path results = Outputs.ROOT.resolve("signoff");

    @Mixin
    CalibrationOptions calibration = new CalibrationOptions();

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
            calibration.check();
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final String bad = badOutputs(results, device);
        if (bad != null) {
            return refuse(bad);
        }
        if (repeat < 1) {
            return refuse("--repeat must be at least 1, got " + repeat);
        }
        final String host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
        final String base = LocalDate.now(ZoneId.systemDefault()) + "-" + sc.name() + "-" + host;
        final Claim scratch;
        try {
            scratch = calibration.profile != null ? null
                : Outputs.claimScratch(scratchPath(device), "calibration scratch file",
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
        Files.createDirectories(results);
        final Optional<Repeats.RealRuns> real = Repeats.real(sc, seed, repeat, device, io, forceOptions.force(),
            Invocation.holder(spec), out);
        if (real.isEmpty()) {
            return ExitCodes.BAD_INPUT;
        }
        final Optional<Calibrated> profiles = Calibrated.of(new Calibrated.Request(scratch,
            RunShape.of(sc.spec().core()), sc.spec().core().l2Bytes(), calibration.profile, calibration.hostProfile,
            results.resolve(base + "-device.toml"), results.resolve(base + "-host.toml"), host,
            calibration.quickCalibration,
            !calibration.noFio, new Repeats.RealDevice(device, io, forceOptions.force(), Invocation.holder(spec))),
            out);
        if (profiles.isEmpty()) {
            return ExitCodes.BAD_INPUT;
        }
        out.println("== simulated runs on " + profiles.get().deviceToml() + " and " + profiles.get().hostToml());
        final Scenario simSc;
        try {
            simSc = ScenarioLoader.load(scenario, profiles.get().simSets(sets));
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final List<RunReport> sim = Repeats.sim(simSc, seed, repeat, out);
        return finish(sc, host, base, real.get(), sim, profiles.get(), fio(sc, out), out);
    }

    /** The calibration's scratch file beside the L2 file: {@code DEVICE.calibration}. */
    static Path scratchPath(final Path device) {
        return device.resolveSibling(device.getFileName() + ".calibration");
    }

    /** Null, or why results cannot go into {@code dir} (a file, or a path that holds {@code device}). */
    static String badOutputs(final Path dir, final Path device) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--results " + dir + " is a file; name a directory";
        }
        final String check = OutputFile.check(dir.resolve("signoff.json"), "--results", List.of(device));
        return check == null ? null : check.replace(dir.resolve("signoff.json").toString(), dir.toString());
    }

    static int refuse(final String message) {
        System.err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    private SignoffReport.Fio fio(final Scenario sc, final PrintStream out) {
        if (calibration.noFio || !FioRunner.available()) {
            out.println(
                "fio: not run (" + (calibration.noFio ? "--no-fio" : "not installed: apt-get install fio") + ")");
            return null;
        }
        final long size = sc.spec().core().l2Bytes();
        final FioRunner.Buffers buffers = FioRunner.hugePagesFree(16 * MIB) ? FioRunner.Buffers.HUGE_PAGES
            : FioRunner.Buffers.SMALL_PAGES;
        // fio writes the L2 data file after kvtier's header, as the runs did.
        final DeviceFile region = new DeviceFile(device, HeaderLayout.BYTES, size);
        final Optional<Measurement> w = FioRunner.run(region, IoOp.WRITE, MIB, 16, 5000, true, buffers);
        final Optional<Measurement> r = FioRunner.run(region, IoOp.READ, MIB, 16, 5000, true, buffers);
        if (w.isEmpty() || r.isEmpty()) {
            return null;
        }
        out.printf("fio sequential 1 MiB depth 16 (%s): write %.2f GB/s, read %.2f GB/s%n", buffers,
            w.get().bytesPerSec() / 1e9, r.get().bytesPerSec() / 1e9);
        return new SignoffReport.Fio(w.get().bytesPerSec(), r.get().bytesPerSec());
    }

    private int finish(final Scenario sc, final String host, final String base, final Repeats.RealRuns runs,
                       final List<RunReport> sim, final Calibrated p, final SignoffReport.Fio fio,
                       final PrintStream out) throws IOException {
        final List<RunReport> real = runs.reports();
        final double store = Fidelity.median(real.stream().map(Results::storeBytesPerSec).toList());
        final double simStore = Fidelity.median(sim.stream().map(Results::storeBytesPerSec).toList());
        final SignoffReport.Previous previous = Results.previous(results, sc.name(), host, base + ".json", store);
        final List<Fidelity.Figure> figures = Fidelity.figures(real, sim, sc.signoff());
        final List<String> reasons = Results.reasons(real, sim, store, previous, sc.signoff(), figures,
            p.suspect());
        final SignoffReport report = new SignoffReport(sc.name(), host,
            LocalDate.now(ZoneId.systemDefault()).toString(), seed,
            device.toString(), real.getFirst(), sim.getFirst(), p.device(), p.host(), fio,
            Results.fidelity(real.getFirst(), sim.getFirst()), repeat, figures, runs.cpu(),
            HostWork.lines(p.host(), runs.work()), p.notes(), p.suspect(),
            store,
            simStore, fio == null ? null : store / fio.seqWriteBytesPerSec(), previous, sc.signoff(),
            reasons.isEmpty(), reasons);
        for (final Path f : Results.write(report, results, base)) {
            out.println("wrote " + f);
        }
        for (final Fidelity.Figure f : figures) {
            out.println((f.inBand() ? "in band   " : "OUT       ") + f.describe());
        }
        out.println(report.pass() ? "SIGN-OFF PASS" : "SIGN-OFF FAIL: " + String.join("; ", reasons));
        if (real.stream().anyMatch(r -> !r.ok()) || sim.stream().anyMatch(r -> !r.ok())) {
            return ExitCodes.INVARIANT;
        }
        return report.pass() ? ExitCodes.OK : ExitCodes.GATE;
    }
}
