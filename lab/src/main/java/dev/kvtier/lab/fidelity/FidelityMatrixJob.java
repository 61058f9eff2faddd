package dev.kvtier.lab.fidelity;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.calibrate.Calibrated;
import dev.kvtier.lab.calibrate.CalibrationChoice;
import dev.kvtier.lab.calibrate.CalibrationDrift;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.lab.results.ResultsIndex;
import dev.kvtier.lab.run.Conditions;
import dev.kvtier.lab.run.Repeats;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.realio.calibrate.Calibration;
import dev.kvtier.realio.calibrate.DiskRecheck;
import dev.kvtier.realio.calibrate.ProfileToml;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.host.ProcStat;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The held-out fidelity matrix ({@link Matrix}), as {@code kvtier fidelity} runs it: calibrates the disk and the core
 * once (with the core's default run shape, not any matrix scenario's), then runs each held-out scenario real and
 * simulated {@code repeat} times, and writes the report, its Markdown and a plot ({@link MatrixFiles}), the profiles
 * and the metadata ({@link ResultInfo}) into a new folder under the results root's {@code fidelity/} ({@link
 * ResultFolders}; the root's index rewritten if it has one): per scenario
 * and figure the simulated / real ratio, per kind of figure MAPE and mean signed error, the per-slot / contiguous
 * cold-TTFT ratio real and simulated, and the disk's own spread. Exit 4 when a threshold of the matrix is missed, 1
 * when an invariant failed. As a sign-off: the L2 file and its index are claimed as a real run claims them, the
 * calibration's scratch file as a scratch file (removed at the end only if this run created it), and the files are
 * written whole or not at all.
 */
public final class FidelityMatrixJob {
    /** A matrix's scenario in its folder's name and metadata. */
    public static final String SCENARIO = "fidelity";
    /** The calibration's scratch file: 8 GiB. */
    private static final long CALIBRATION_FILE_BYTES = 8L << 30;
    /** A recheck's round of each cell: 0.5 s (three rounds of each, about 3 s a recheck). */
    private static final long RECHECK_CELL_NS = 500_000_000L;

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
    private final String why;
    private final int heldOut;
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
     * @param results     the results root: the result goes into a new folder under its {@code fidelity/}
     * @param calibration the profiles: given or calibrated
     * @param force       what may be written over
     * @param holder      who runs it, for the locks
     * @param why         why this matrix is measured, for its metadata, or null
     * @param heldOut     0 for the fixed matrix, else how many shapes to draw ({@link HeldOutDraw}) with {@code seed}
     */
    public record Request(Path device, IoChoice io, long seed, int repeat, List<String> only, List<String> sets,
                          Path results, CalibrationChoice calibration, Force force, Holder holder, String why,
                          int heldOut) {
        public Request {
            only = List.copyOf(only);
            sets = List.copyOf(sets);
        }

        /** The fixed matrix. */
        public Request(final Path device, final IoChoice io, final long seed, final int repeat, final List<String> only,
                       final List<String> sets, final Path results, final CalibrationChoice calibration,
                       final Force force, final Holder holder, final String why) {
            this(device, io, seed, repeat, only, sets, results, calibration, force, holder, why, 0);
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
        this.why = q.why();
        this.heldOut = q.heldOut();
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Runs it; the exit code. */
    public int run() throws IOException {
        final PrintStream out = stdout;
        if (heldOut > 0 && !only.isEmpty()) {
            return refuse("--only picks entries of the fixed matrix; --held-out draws its own shapes");
        }
        final List<Matrix.HeldOut> drawn;
        try {
            drawn = heldOut > 0 ? HeldOutDraw.draw(heldOut, seed, budget()) : Matrix.DEFAULT;
        } catch (final IllegalArgumentException e) {
            return refuse(e.getMessage());
        }
        final List<Matrix.HeldOut> matrix = drawn.stream().filter(h -> only.isEmpty()
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
        final Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        final Conditions.Sampler sampler = Conditions.start(device);
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Matrix.HeldOut h : matrix) {
            try {
                scenarios.add(ScenarioLoader.load(h.scenario(), h.sets()));
            } catch (final ScenarioException e) {
                stderr.println("kvtier: " + h.label() + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
        }
        final Path folder = ResultFolders.create(results, ResultKind.FIDELITY, SCENARIO, host, at);
        final Optional<Calibrated> p = Calibrated.of(new Calibrated.Request(scratch, RunShape.DEFAULT,
            CALIBRATION_FILE_BYTES, calibration.profile(), calibration.hostProfile(),
            folder.resolve(Calibrated.DEVICE_TOML), folder.resolve(Calibrated.HOST_TOML), host, calibration.quick(),
            calibration.fio(),
            new Repeats.RealDevice(device, io, force, holder)), out);
        if (p.isEmpty()) {
            // A calibration that wrote nothing leaves no folder; one that wrote a profile keeps it (no result.json).
            ResultFolders.removeIfEmpty(folder);
            return ExitCodes.BAD_INPUT;
        }
        final DiskMoves moves = new DiskMoves(p.get().device());
        final List<Matrix.Entry> entries = new ArrayList<>();
        boolean invariants = true;
        try (DiskRecheck.Session disk = recheckSession(scratch)) {
            for (int i = 0; i < matrix.size(); i++) {
                final Optional<DiskRecheck.Figures> before = recheck(disk, moves, "before " + matrix.get(i).label());
                final Calibrated profiles = onRecheckedDisk(p.get(), before, moves, folder, matrix.get(i).label(), out);
                final Optional<Ran> e = entry(matrix.get(i), scenarios.get(i), profiles, out);
                if (e.isEmpty()) {
                    return ExitCodes.BAD_INPUT;
                }
                entries.add(e.get().entry());
                invariants &= e.get().ok();
            }
            recheck(disk, moves, "after the last");
        }
        final Matrix.Report report = judge(entries, p.get(), host, at, folder, sampler.end(), moves.notes());
        write(report, folder, at, out);
        for (final Matrix.KindError e : report.errors()) {
            out.printf("%-10s %2d figures: MAPE %.1f %%, mean signed %+.1f %%%n", e.kind(), e.figures(),
                100 * e.mape(), 100 * e.meanSigned());
        }
        report.judged().gate().forEach(g -> out.println("against the previous matrix: " + g.describe()));
        report.judged().biases().forEach(b -> out.println("bias: " + b));
        moves.notes().forEach(n -> out.println("disk: " + n));
        out.println("conditions: " + report.judged().conditions().describe());
        out.println("FIDELITY " + report.judged().verdict(report.pass()) + (report.pass() ? ""
            : ": " + String.join("; ", report.reasons())));
        if (!invariants) {
            return ExitCodes.INVARIANT;
        }
        return report.pass() ? ExitCodes.OK : ExitCodes.GATE;
    }

    /**
     * The report: errors per kind against this matrix's thresholds (the fixed matrix's, or the held-out ones), the
     * biases, the gate against the previous matrix on this host, and the conditions.
     */
    private Matrix.Report judge(final List<Matrix.Entry> entries, final Calibrated p, final String host,
                                final Instant at, final Path folder, final Conditions conditions,
                                final List<String> disk) throws IOException {
        final Matrix.Thresholds t = heldOut > 0 ? Matrix.Thresholds.HELD_OUT : Matrix.Thresholds.MATRIX;
        final List<Matrix.KindError> errors = Matrix.errors(entries);
        final List<String> reasons = new ArrayList<>(Matrix.reasons(entries, errors, t));
        final Optional<ResultFolders.Result> previous = ResultFolders.previous(results, ResultKind.FIDELITY, SCENARIO,
            host, at, folder);
        final List<FidelityGate.Kind> gate = previous.isPresent()
            && Files.isRegularFile(previous.get().folder().resolve(MatrixFiles.JSON))
                ? FidelityGate.compare(previous.get().folder().resolve(MatrixFiles.JSON), entries) : List.of();
        gate.stream().filter(FidelityGate.Kind::flagged).forEach(g -> reasons.add("worse than "
            + previous.get().name() + ": " + g.describe()));
        final String matrix = heldOut > 0 ? heldOut + " held-out shapes drawn with seed " + seed : "the fixed matrix";
        final List<String> notes = new ArrayList<>(p.notes());
        notes.addAll(disk);
        previous.ifPresent(b -> notes.addAll(CalibrationDrift.lines(b.folder(), b.name(), p.deviceToml(),
            p.hostToml())));
        return new Matrix.Report(host, LocalDate.ofInstant(at, ZoneOffset.UTC).toString(), seed, repeat,
            device.toString(), p.device(), p.host(), notes, p.comparisons(), entries, errors,
            Matrix.regression(entries).orElse(null), reasons, reasons.isEmpty(),
            new Matrix.Judged(matrix, t, Matrix.biases(errors, t), gate, conditions));
    }

    /**
     * The disk's rechecks for this sitting, on the calibration's scratch file when this sitting calibrated (a profile
     * given with --profile has no scratch file to measure on); null when there is none.
     */
    private DiskRecheck.Session recheckSession(final Claim scratch) {
        return scratch == null ? null : DiskRecheck.open(scratch.path(), scratch.baseOffset(), CALIBRATION_FILE_BYTES,
            calibration.quick(), RunShape.DEFAULT).orElse(null);
    }

    private static Optional<DiskRecheck.Figures> recheck(final DiskRecheck.Session disk, final DiskMoves moves,
                                                         final String at) {
        if (disk == null) {
            return Optional.empty();
        }
        final Optional<DiskRecheck.Figures> f = disk.measure(RECHECK_CELL_NS);
        moves.add(at, f);
        return f;
    }

    /**
     * The profiles to simulate {@code label} on: the sitting's, or, when the recheck before it found the disk moved
     * more than {@link DiskMoves#WARN}, the same with the rechecked bandwidths, written to {@code disk/LABEL.toml}.
     */
    private static Calibrated onRecheckedDisk(final Calibrated p, final Optional<DiskRecheck.Figures> before,
                                              final DiskMoves moves, final Path folder, final String label,
                                              final PrintStream out) throws IOException {
        final Optional<DeviceProfile> d = DiskMoves.rechecked(p.device(), before);
        if (d.isEmpty()) {
            return p;
        }
        final Path toml = folder.resolve("disk").resolve(label + ".toml");
        Files.createDirectories(toml.getParent());
        OutputFile.writeString(toml, ProfileToml.write(new Calibration(d.get(), List.of()), "the disk as rechecked"
            + " before " + label + ": " + before.get().describe(p.device()) + " of the calibration " + p.deviceToml()
                .getFileName()));
        moves.simulatedRechecked(label);
        out.println("disk: " + label + " is simulated on the disk as rechecked before it: "
            + before.get().describe(p.device()) + " -> " + toml);
        return p.withDevice(toml, d.get());
    }

    /** An entry of the matrix, and whether every invariant held in its runs. */
    private record Ran(Matrix.Entry entry, boolean ok) {}

    /** One held-out scenario real and simulated {@code repeat} times; empty when it could not run. */
    private Optional<Ran> entry(final Matrix.HeldOut h, final Scenario sc, final Calibrated p,
                                final PrintStream out) throws IOException {
        final Scenario simSc;
        try {
            simSc = ScenarioLoader.load(h.scenario(), p.simSets(h.sets()));
        } catch (final ScenarioException e) {
            stderr.println("kvtier: " + h.label() + ": " + e.getMessage());
            return Optional.empty();
        }
        out.println("== " + h.label() + ": " + h.scenario() + " " + h.sets());
        final Optional<Repeats.RealRuns> real = Repeats.real(sc, seed, repeat, device, io, force, holder, out);
        if (real.isEmpty()) {
            return Optional.empty();
        }
        final List<RunReport> sim = Repeats.sim(simSc, seed, repeat, out);
        return Optional.of(new Ran(new Matrix.Entry(h, Fidelity.figures(real.get().reports(), sim, sc.signoff()),
            real.get().cpu(), real.get().work(), real.get().loop()),
            real.get().reports().stream().allMatch(RunReport::ok)
                && sim.stream().allMatch(RunReport::ok)));
    }

    /** The report's files, the metadata (superseding the previous matrix on this host) and the index. */
    private void write(final Matrix.Report report, final Path folder, final Instant at,
                       final PrintStream out) throws IOException {
        for (final Path f : MatrixFiles.write(report, folder)) {
            out.println("wrote " + f);
        }
        final String previous = ResultFolders.previous(results, ResultKind.FIDELITY, SCENARIO, report.host(), at,
            folder).map(ResultFolders.Result::name).orElse(null);
        out.println("wrote " + ResultInfo.of(ResultKind.FIDELITY, SCENARIO, report.host(), at, report, previous, why)
            .write(folder));
        final Path index = ResultsIndex.refreshIfIndexed(results);
        if (index != null) {
            out.println("wrote " + index);
        }
    }

    /** What a held-out shape may use: 45 % of the memory available now, half the free space of the L2 file's disk. */
    private HeldOutDraw.Budget budget() throws IOException {
        final long available = Math.max(0, ProcStat.meminfo("MemAvailable")) * 1024;
        Path dir = device.toAbsolutePath().getParent();
        while (dir != null && !Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        final long free = dir == null ? 0 : Files.getFileStore(dir).getUsableSpace();
        return new HeldOutDraw.Budget((long) (0.45 * available), free / 2);
    }

    private int refuse(final String message) {
        stderr.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }
}
