package dev.kvtier.cli;

import dev.kvtier.cli.signoff.Fidelity;
import dev.kvtier.cli.signoff.Matrix;
import dev.kvtier.cli.signoff.MatrixFiles;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
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
import picocli.CommandLine.Spec;

/**
 * {@code kvtier fidelity --device PATH}: the held-out fidelity matrix ({@link Matrix}). Calibrates the disk and the
 * core once (with the core's default run shape, not any matrix scenario's), then runs each held-out scenario real and
 * simulated {@code --repeat} times, and writes {@code <date>-fidelity-<host>.json}, {@code .md} and a plot: per
 * scenario and figure the simulated / real ratio, per kind of figure MAPE and mean signed error, the per-slot /
 * contiguous cold-TTFT ratio real and simulated, and the disk's own spread (the calibration's fio rounds). Exit 4 when
 * a threshold of the matrix is missed, 1 when an invariant failed. As {@code kvtier signoff}: the L2 file and its index
 * are claimed as a real run claims them, the calibration's scratch file ({@code DEVICE.calibration}) as a scratch file
 * (removed at the end only if this command created it), and the files are written whole or not at all, by default
 * under {@code kvtier-out/fidelity/}.
 */
@Command(name = "fidelity", mixinStandardHelpOptions = true,
    description = "Held-out fidelity matrix: calibrate once, run scenarios real and simulated, report the error.")
public final class FidelityCommand implements Callable<Integer> {
    @Option(names = "--device", required = true, paramLabel = "PATH", description = "the L2 file (created; absent, "
        + "empty or kvtier's own unless --force)")
    Path device;

    @Option(names = "--io", description = "auto, uring or filechannel (default auto)")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--seed", description = "seed of the first repetition (default 1)")
    long seed = 1;

    @Option(names = "--repeat", description = "repetitions of each scenario in each mode (default 3)")
    int repeat = 3;

    @Option(names = "--only", paramLabel = "LABEL",
        description = "run only these entries of the matrix: contiguous, per-slot, small-l1, zipf")
    List<String> only = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "override a scenario key in every entry, after the "
            + "entry's own (e.g. workload.prompts=2 for a quick look; the report lists them)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR", description = "where the files go (default kvtier-out/fidelity)")
    Path results = Outputs.ROOT.resolve("fidelity");

    @Mixin
    CalibrationOptions calibration = new CalibrationOptions();

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        final PrintStream out = System.out;
        final List<Matrix.HeldOut> matrix = Matrix.DEFAULT.stream().filter(h -> only.isEmpty()
            || only.contains(h.label())).map(h -> h.with(sets)).toList();
        final List<String> labels = Matrix.DEFAULT.stream().map(Matrix.HeldOut::label).toList();
        final String unknown = only.stream().filter(l -> !labels.contains(l)).findFirst().orElse(null);
        if (unknown != null) {
            return SignoffCommand.refuse("--only " + unknown.replace('\n', ' ') + " is not an entry of the matrix ("
                + String.join(", ", labels) + ")");
        }
        if (matrix.isEmpty() || repeat < 1) {
            return SignoffCommand.refuse("nothing to run (--only " + only + ", --repeat " + repeat + ")");
        }
        try {
            calibration.check();
        } catch (final ScenarioException e) {
            return SignoffCommand.refuse(e.getMessage());
        }
        final String bad = SignoffCommand.badOutputs(results, device);
        if (bad != null) {
            return SignoffCommand.refuse(bad);
        }
        final Claim scratch;
        try {
            scratch = calibration.profile != null ? null : Outputs.claimScratch(SignoffCommand.scratchPath(device),
                "calibration scratch file", forceOptions.force(), spec);
        } catch (final ClaimRefused e) {
            return SignoffCommand.refuse(e.getMessage());
        }
        try {
            return matrix(matrix, scratch, out);
        } finally {
            if (scratch != null) {
                // The scratch file is removed if this command created it; one that was there stays.
                scratch.abandon();
            }
        }
    }

    private int matrix(final List<Matrix.HeldOut> matrix, final Claim scratch,
                       final PrintStream out) throws IOException {
        final String host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "_");
        final String base = LocalDate.now(ZoneId.systemDefault()) + "-fidelity-" + host;
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Matrix.HeldOut h : matrix) {
            try {
                scenarios.add(ScenarioLoader.load(h.scenario(), h.sets()));
            } catch (final ScenarioException e) {
                System.err.println("kvtier: " + h.label() + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
        }
        Files.createDirectories(results);
        final Optional<Calibrated> p = Calibrated.of(new Calibrated.Request(scratch, RunShape.DEFAULT, 8L << 30,
            calibration.profile, calibration.hostProfile, results.resolve(base + "-device.toml"),
            results.resolve(base + "-host.toml"), host,
            calibration.quickCalibration, !calibration.noFio, new Repeats.RealDevice(device, io, forceOptions.force(),
                Invocation.holder(spec))),
            out);
        if (p.isEmpty()) {
            return ExitCodes.BAD_INPUT;
        }
        final List<Matrix.Entry> entries = new ArrayList<>();
        boolean invariants = true;
        for (int i = 0; i < matrix.size(); i++) {
            final Matrix.HeldOut h = matrix.get(i);
            final Scenario sc = scenarios.get(i);
            final Scenario simSc;
            try {
                simSc = ScenarioLoader.load(h.scenario(), p.get().simSets(h.sets()));
            } catch (final ScenarioException e) {
                System.err.println("kvtier: " + h.label() + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            out.println("== " + h.label() + ": " + h.scenario() + " " + h.sets());
            final Optional<Repeats.RealRuns> real = Repeats.real(sc, seed, repeat, device, io, forceOptions.force(),
                Invocation.holder(spec), out);
            if (real.isEmpty()) {
                return ExitCodes.BAD_INPUT;
            }
            final List<RunReport> sim = Repeats.sim(simSc, seed, repeat, out);
            invariants &= real.get().reports().stream().allMatch(RunReport::ok) && sim.stream()
                .allMatch(RunReport::ok);
            entries.add(new Matrix.Entry(h, Fidelity.figures(real.get().reports(), sim, sc.signoff()),
                real.get().cpu(), real.get().work()));
        }
        final List<Matrix.KindError> errors = Matrix.errors(entries);
        final List<String> reasons = Matrix.reasons(entries, errors);
        final Matrix.Report report = new Matrix.Report(host, LocalDate.now(ZoneId.systemDefault()).toString(), seed,
            repeat,
            device.toString(), p.get().device(), p.get().host(), p.get().notes(), p.get().comparisons(), entries,
            errors, Matrix.regression(entries).orElse(null), reasons, reasons.isEmpty());
        for (final Path f : MatrixFiles.write(report, results, base)) {
            out.println("wrote " + f);
        }
        for (final Matrix.KindError e : errors) {
            out.printf("%-10s %2d figures: MAPE %.1f %%, mean signed %+.1f %%%n", e.kind(), e.figures(),
                100 * e.mape(), 100 * e.meanSigned());
        }
        out.println(report.pass() ? "FIDELITY PASS" : "FIDELITY FAIL: " + String.join("; ", reasons));
        if (!invariants) {
            return ExitCodes.INVARIANT;
        }
        return report.pass() ? ExitCodes.OK : ExitCodes.GATE;
    }
}
