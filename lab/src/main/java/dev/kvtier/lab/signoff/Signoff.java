package dev.kvtier.lab.signoff;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.DiskMeter;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.calibrate.CalibrationChoice;
import dev.kvtier.lab.calibrate.Calibrated;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.lab.results.ResultsIndex;
import dev.kvtier.lab.run.Repeats;
import dev.kvtier.realio.calibrate.FioRunner;
import dev.kvtier.realio.calibrate.Measurement;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.ClaimRefused;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.HeaderLayout;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * A sign-off: the scenario in real I/O {@code repeat} times, then in virtual time as many times on a device profile
 * and a host cost profile calibrated on this machine (repetition i with seed + i in both modes), then fio on the same
 * file; every figure's median and spread, real and simulated, judged against the scenario's fidelity bands
 * ({@code [signoff]}); a comparison with the newest earlier result; the report, its Markdown and plots ({@link
 * Results}), the profiles and the metadata ({@link ResultInfo}) in a new folder under the results root's
 * {@code signoffs/} ({@link ResultFolders}), and the root's index rewritten if it has one ({@link ResultsIndex}).
 * Exit 4 when a threshold or a band fails or the calibrated profile is suspect, 1 when an invariant failed. The L2
 * file and its index are claimed as a real run claims them, and the calibration's scratch file
 * ({@code DEVICE.calibration}) as a scratch file; the scratch file is removed at the end only if this sign-off created
 * it. Results and profiles are written whole or not at all.
 */
public final class Signoff {
    private static final long MIB = 1L << 20;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;
    private Conditions.Sampler conditions;

    /**
     * What to sign off.
     *
     * @param scenario    a library name or a path
     * @param sets        overrides in both modes
     * @param device      the L2 file or block device
     * @param io          the kind of I/O
     * @param seed        the first repetition's seed
     * @param repeat      repetitions in each mode
     * @param results     the results root: the result goes into a new folder under its {@code signoffs/}
     * @param calibration the profiles: given or calibrated
     * @param force       what may be written over
     * @param holder      who runs it, for the locks
     * @param why         why this sign-off is made, for its metadata, or null
     */
    public record Request(String scenario, List<String> sets, Path device, IoChoice io, long seed, int repeat,
                          Path results, CalibrationChoice calibration, Force force, Holder holder, String why) {
        public Request {
            sets = List.copyOf(sets);
        }
    }

    /** A sign-off of {@code q}, printing on {@code out} and {@code err}. */
    public Signoff(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() throws IOException {
        final Scenario sc;
        try {
            sc = ScenarioLoader.load(q.scenario(), q.sets());
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final String bad = Outputs.checkResultsDir(q.results(), q.device());
        if (bad != null) {
            return refuse(bad);
        }
        if (q.repeat() < 1) {
            return refuse("--repeat must be at least 1, got " + q.repeat());
        }
        final Where where = new Where(Outputs.hostName(), Instant.now().truncatedTo(ChronoUnit.SECONDS));
        final Claim scratch;
        try {
            scratch = q.calibration().profile() != null ? null
                : Outputs.claimScratch(Outputs.scratchPath(q.device()), "calibration scratch file", q.force(),
                    q.holder());
        } catch (final ClaimRefused e) {
            return refuse(e.getMessage());
        }
        try {
            return signoff(sc, where, scratch);
        } finally {
            if (scratch != null) {
                // The scratch file is removed if this sign-off created it; one that was there stays.
                scratch.abandon();
            }
        }
    }

    /** Who and when: this machine's name and when the sign-off started (its folder's name and metadata). */
    private record Where(String host, Instant at) {}

    private int signoff(final Scenario sc, final Where where, final Claim scratch) throws IOException {
        conditions = Conditions.start(q.device());
        final Optional<Repeats.RealRuns> real = Repeats.real(sc, q.seed(), q.repeat(), q.device(), q.io(), q.force(),
            q.holder(), out);
        if (real.isEmpty()) {
            return ExitCodes.BAD_INPUT;
        }
        final CalibrationChoice c = q.calibration();
        final Path folder = ResultFolders.create(q.results(), ResultKind.SIGNOFF, sc.name(), where.host(),
            where.at());
        final Optional<Calibrated> profiles = Calibrated.of(new Calibrated.Request(scratch,
            RunShape.of(sc.spec().core()), sc.spec().core().l2Bytes(), c.profile(), c.hostProfile(),
            folder.resolve(Calibrated.DEVICE_TOML), folder.resolve(Calibrated.HOST_TOML), where.host(), c.quick(),
            c.fio(), new Repeats.RealDevice(q.device(), q.io(), q.force(), q.holder())), out);
        if (profiles.isEmpty()) {
            // A calibration that wrote nothing leaves no folder; one that wrote a profile keeps it (no result.json).
            ResultFolders.removeIfEmpty(folder);
            return ExitCodes.BAD_INPUT;
        }
        out.println("== simulated runs on " + profiles.get().deviceToml() + " and " + profiles.get().hostToml());
        final Scenario simSc;
        try {
            simSc = ScenarioLoader.load(q.scenario(), profiles.get().simSets(q.sets()));
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        final List<RunReport> sim = Repeats.sim(simSc, q.seed(), q.repeat(), out);
        return finish(sc, where, folder, real.get(), sim, profiles.get(), fio(sc));
    }

    private int refuse(final String message) {
        err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    private SignoffReport.Fio fio(final Scenario sc) {
        if (!q.calibration().fio() || !FioRunner.available()) {
            out.println("fio: not run (" + (!q.calibration().fio() ? "--no-fio" : "not installed: apt-get install fio")
                + ")");
            return null;
        }
        final long size = sc.spec().core().l2Bytes();
        final FioRunner.Buffers buffers = FioRunner.hugePagesFree(16 * MIB) ? FioRunner.Buffers.HUGE_PAGES
            : FioRunner.Buffers.SMALL_PAGES;
        // fio writes the L2 data file after kvtier's header, as the runs did.
        final DeviceFile region = new DeviceFile(q.device(), HeaderLayout.BYTES, size);
        final Optional<Measurement> w = FioRunner.run(region, IoOp.WRITE, MIB, 16, 5000, true, buffers);
        final Optional<Measurement> r = FioRunner.run(region, IoOp.READ, MIB, 16, 5000, true, buffers);
        if (w.isEmpty() || r.isEmpty()) {
            return null;
        }
        out.printf("fio sequential 1 MiB depth 16 (%s): write %.2f GB/s, read %.2f GB/s%n", buffers,
            w.get().bytesPerSec() / 1e9, r.get().bytesPerSec() / 1e9);
        return new SignoffReport.Fio(w.get().bytesPerSec(), r.get().bytesPerSec());
    }

    private int finish(final Scenario sc, final Where where, final Path folder, final Repeats.RealRuns runs,
                       final List<RunReport> sim, final Calibrated p, final SignoffReport.Fio fio) throws IOException {
        final List<RunReport> real = runs.reports();
        final double store = Fidelity.median(real.stream().map(Results::storeBytesPerSec).toList());
        final double simStore = Fidelity.median(sim.stream().map(Results::storeBytesPerSec).toList());
        final SignoffReport.Previous previous = Results.previous(q.results(), sc.name(), where.host(), where.at(),
            folder, store);
        final List<Fidelity.Figure> figures = Fidelity.figures(real, sim, sc.signoff());
        final List<String> reasons = Results.reasons(real, sim, store, previous, sc.signoff(), figures,
            p.suspect());
        final SignoffReport report = new SignoffReport(sc.name(), where.host(),
            LocalDate.ofInstant(where.at(), ZoneOffset.UTC).toString(), q.seed(),
            q.device().toString(), real.getFirst(), sim.getFirst(), p.device(), p.host(), fio,
            Results.fidelity(real.getFirst(), sim.getFirst()), q.repeat(), figures, runs.cpu(),
            HostWork.lines(p.host(), runs.work(), runs.loop()), p.notes(), p.suspect(),
            store,
            simStore, runs.disk().getFirst(), fio == null ? null : Fidelity.median(runs.disk().stream()
                .map(DiskMeter.Figures::writeBytesPerSecBusy).toList()) / fio.seqWriteBytesPerSec(),
            previous,
            sc.signoff(),
            reasons.isEmpty(), reasons, conditions == null ? null : conditions.end());
        for (final Path f : Results.write(report, folder)) {
            out.println("wrote " + f);
        }
        out.println("wrote " + ResultInfo.of(ResultKind.SIGNOFF, sc.name(), where.host(), where.at(), report,
            previous == null ? null : previous.result(), q.why()).write(folder));
        final Path index = ResultsIndex.refreshIfIndexed(q.results());
        if (index != null) {
            out.println("wrote " + index);
        }
        for (final Fidelity.Figure f : figures) {
            out.println((f.inBand() ? "in band   " : "OUT       ") + f.describe());
        }
        if (report.conditions() != null) {
            out.println("conditions: " + report.conditions().describe());
        }
        out.println("SIGN-OFF " + Markdown.verdict(report) + (report.pass() ? "" : ": " + String.join("; ",
            reasons)));
        if (real.stream().anyMatch(r -> !r.ok()) || sim.stream().anyMatch(r -> !r.ok())) {
            return ExitCodes.INVARIANT;
        }
        return report.pass() ? ExitCodes.OK : ExitCodes.GATE;
    }
}
