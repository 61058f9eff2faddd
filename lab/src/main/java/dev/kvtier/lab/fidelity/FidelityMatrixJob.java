package dev.kvtier.lab.fidelity;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.calibrate.Calibrated;
import dev.kvtier.lab.calibrate.CalibrationChoice;
import dev.kvtier.lab.run.Repeats;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The held-out fidelity matrix ({@link Matrix}), as {@code kvtier fidelity} runs it: calibrates the disk and the core
 * once (with the core's default run shape, not any matrix scenario's), then runs each held-out scenario real and
 * simulated {@code repeat} times, and writes the report, its Markdown and a plot ({@link MatrixFiles}): per scenario
 * and figure the simulated / real ratio, per kind of figure MAPE and mean signed error, the per-slot / contiguous
 * cold-TTFT ratio real and simulated, and the disk's own spread. Exit 4 when a threshold of the matrix is missed, 1
 * when an invariant failed. As a sign-off: the L2 file and its index are claimed as a real run claims them, the
 * calibration's scratch file as a scratch file (removed at the end only if this run created it), and the files are
 * written whole or not at all.
 */
public final class FidelityMatrixJob {
    private final Path device;
    private final IoChoice io;
    private final long seed;
    private final int repeat;
    private final List<String> only;
    private final List<String> sets;
    private final Path results;
    private final CalibrationChoice calibration;
    private final Force force;
    private final Holder holder;
    private final PrintStream stdout;
    private final PrintStream stderr;

    /**
     * What to run.
     *
     * @param device      the L2 file
     * @param io          the kind of I/O
     * @param seed        the first repetition's seed
     * @param repeat      repetitions of each entry in each mode
     * @param only        the entries to run (empty: all)
     * @param sets        overrides for every entry, after the entry's own
     * @param results     where the files go
     * @param calibration the profiles: given or calibrated
     * @param force       what may be written over
     * @param holder      who runs it, for the locks
     */
    public record Request(Path device, IoChoice io, long seed, int repeat, List<String> only, List<String> sets,
                          Path results, CalibrationChoice calibration, Force force, Holder holder) {
        public Request {
            only = List.copyOf(only);
            sets = List.copyOf(sets);
        }
    }

    /** A matrix of {@code q}, printing on {@code stdout} and {@code stderr}. */
    public FidelityMatrixJob(final Request q, final PrintStream stdout, final PrintStream stderr) {
        this.device = q.device();
        this.io = q.io();
        this.seed = q.seed();
        this.repeat = q.repeat();
        this.only = q.only();
        this.sets = q.sets();
        this.results = q.results();
        this.calibration = q.calibration();
        this.force = q.force();
        this.holder = q.holder();
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Runs it; the exit code. */
    public int run() throws IOException {
        final PrintStream out = stdout;
        final List<Matrix.HeldOut> matrix = Matrix.DEFAULT.stream().filter(h -> only.isEmpty()
            || only.contains(h.label())).map(h -> h.with(sets)).toList();
        final List<String> labels = Matrix.DEFAULT.stream().map(Matrix.HeldOut::label).toList();
        final String unknown = only.stream().filter(l -> !labels.contains(l)).findFirst().orElse(null);
        if (unknown != null) {
            return refuse("--only " + unknown.replace('\n', ' ') + " is not an entry of the matrix ("
                + String.join(", ", labels) + ")");
        }
        if (matrix.isEmpty() || repeat < 1) {
            return refuse("nothing to run (--only " + only + ", --repeat " + repeat + ")");
        }
        final String bad = Outputs.checkResultsDir(results, device);
        if (bad != null) {
            return refuse(bad);
        }
        final Claim scratch;
        try {
            scratch = calibration.profile() != null ? null : Outputs.claimScratch(Outputs.scratchPath(device),
                "calibration scratch file", force, holder);
        } catch (final ClaimRefused e) {
            return refuse(e.getMessage());
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
        final String host = Outputs.hostName();
        final String base = LocalDate.now(ZoneId.systemDefault()) + "-fidelity-" + host;
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Matrix.HeldOut h : matrix) {
            try {
                scenarios.add(ScenarioLoader.load(h.scenario(), h.sets()));
            } catch (final ScenarioException e) {
                stderr.println("kvtier: " + h.label() + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
        }
        Files.createDirectories(results);
        final Optional<Calibrated> p = Calibrated.of(new Calibrated.Request(scratch, RunShape.DEFAULT, 8L << 30,
            calibration.profile(), calibration.hostProfile(), results.resolve(base + "-device.toml"),
            results.resolve(base + "-host.toml"), host,
            calibration.quick(), calibration.fio(), new Repeats.RealDevice(device, io, force,
                holder)),
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
                stderr.println("kvtier: " + h.label() + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            out.println("== " + h.label() + ": " + h.scenario() + " " + h.sets());
            final Optional<Repeats.RealRuns> real = Repeats.real(sc, seed, repeat, device, io, force,
                holder, out);
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

    private int refuse(final String message) {
        stderr.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }
}
