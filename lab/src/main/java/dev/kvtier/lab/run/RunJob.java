package dev.kvtier.lab.run;

import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.scenarios.SwarmCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of {@code kvtier run}, every invariant checked at every event; in virtual time ({@code SimRun}) or on a real
 * disk ({@code RealRun}), through {@link Runs}: loads the scenario, checks the memory it needs and its outputs, prints
 * {@code SEED=} and every setting, runs it with its journal and progress, prints the summary, repeats it in the same
 * JVM ({@link WarmRepeats}) and writes the report. The exit code says how it ended ({@link ExitCodes}).
 */
public final class RunJob {
    /** The most repetitions of a run or a replay in one JVM. */
    public static final int REPEAT_MAX = 1000;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to run.
     *
     * @param scenario        a library name or a path
     * @param sets            {@code --set} overrides
     * @param seed            the root seed
     * @param mode            virtual or real
     * @param report          where the JSON report goes, or null
     * @param requests        where the requests' CSV goes ({@link RequestsCsv}), or null
     * @param journal         the journal's directory, or null
     * @param journalMaxBytes the journal disk's size (a full journal disk past it)
     * @param repeat          runs in this JVM (virtual mode)
     * @param real            the real devices (real mode), or null
     * @param holder          who runs it (this process and its command line), for locks and the journal
     * @param interruptible   SIGINT and SIGTERM stop it and keep its journal (a shutdown hook while it runs)
     * @param swarm           run with the knobs an exploration draws for this seed from the scenario's {@code [swarm]}
     *                        ({@link SeedPlan}): an explored seed, re-run alone
     */
    public record Request(String scenario, List<String> sets, long seed, RunMode mode, Path report, Path requests,
                          Path journal, long journalMaxBytes, int repeat, Real real, Holder holder,
                          boolean interruptible, boolean swarm) {
        public Request {
            sets = List.copyOf(sets);
        }
    }

    /**
     * The devices of a real run.
     *
     * @param device         the L2 file or block device
     * @param indexDevice    the index's file or device, or null for {@code DEVICE.index}
     * @param recover        recover the index instead of formatting it
     * @param io             the kind of I/O
     * @param timeoutSeconds the wall-time limit
     * @param force          what may be written over
     * @param forceFlag      the flag that asked for it ({@code --force}, {@code --force-wipe}), or null
     */
    public record Real(Path device, Path indexDevice, boolean recover, IoChoice io, long timeoutSeconds, Force force,
                       String forceFlag) {}

    /** A job for {@code q}, printing on {@code out} and {@code err}. */
    public RunJob(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /**
     * What a run of either mode returned: its report, where each request's tokens came from, and in real mode what
     * only the real root knows.
     */
    private record Outcome(RunReport report, List<RequestTokens> requests, RealRun.Result real) {}

    /** Runs it; the exit code. SIGINT or SIGTERM stop it at its next event, keeping what it did ({@link #kept}). */
    public int run() {
        final Interruption interruption = q.interruptible() ? Interruption.armed() : Interruption.none();
        try {
            return run(interruption);
        } finally {
            interruption.close();
        }
    }

    private int run(final Interruption interruption) {
        final Scenario sc;
        try {
            sc = load();
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        String bad = RunNeeds.check(sc, q.mode());
        bad = bad != null ? bad : badOutputs();
        if (bad != null) {
            return refuse(bad);
        }
        out.println("SEED=" + q.seed() + " scenario=" + sc.name() + " mode=" + q.mode());
        sc.knobs().forEach((k, v) -> out.println("  " + k + " = " + v));
        RunSummary.bounds(out, sc.spec());
        final JournalRecording recording;
        try {
            recording = JournalRecording.open(q.journal(), sc, q.seed(), q.mode(), q.journalMaxBytes(),
                q.holder().describe());
        } catch (final JournalException e) {
            return refuse(e.getMessage());
        }
        final long t0 = System.nanoTime();
        final long allocated0 = ThreadAllocation.bytesSoFar();
        final Outcome outcome;
        try (Progress progress = Progress.forRun(sc, q.mode(), out)) {
            final List<EventSink> observers = new ArrayList<>(progress.sinks());
            observers.add(interruption);
            outcome = dispatch(sc, recording, observers);
        } catch (final Interruption.Stopped e) {
            return kept(recording, interruption);
        } catch (final BadDevice e) {
            recording.discard();
            return refuse(e.getMessage());
        } catch (final RuntimeException e) {
            err.println("kvtier: crash (a bug) at seed " + q.seed() + ": " + e);
            e.printStackTrace(err);
            err.println("reproduce: " + reproduce());
            return ExitCodes.CRASH;
        }
        RunSummary.summary(out, outcome.report(), System.nanoTime() - t0, DriveWear.of(sc));
        if (q.mode() == RunMode.VIRTUAL) {
            final long allocated1 = ThreadAllocation.bytesSoFar();
            out.println(ThreadAllocation.describe(allocated0 < 0 ? -1 : allocated1 - allocated0,
                outcome.report().events()));
        }
        if (outcome.real() != null) {
            RunSummary.realSummary(out, outcome.real());
        }
        final String differs = q.repeat() > 1 ? WarmRepeats.after(sc, q.seed(), q.repeat(), outcome.report(), out,
            interruption::requested) : null;
        if (differs != null) {
            recording.finish(out, err);
            err.println("kvtier: not deterministic (a bug): " + differs);
            return ExitCodes.CRASH;
        }
        return finish(outcome, recording);
    }

    /**
     * The run was interrupted at an event boundary: its journal (closed by the run's root, with the events up to
     * there) is sealed and marked interrupted, and one line says what was kept.
     */
    private int kept(final JournalRecording recording, final Interruption interruption) {
        final String where = String.format(Locale.ROOT, "after %,d events at %s time %.3f s", interruption.events(),
            q.mode() == RunMode.VIRTUAL ? "virtual" : "wall", recording.lastEventNs() / 1e9);
        final boolean journal = recording.finish(out, err) && recording.markInterrupted(
            "SIGINT or SIGTERM " + where, err);
        if (q.journal() == null) {
            err.println("kvtier: interrupted " + where + "; no journal was asked for (--journal DIR keeps one)");
        } else if (journal) {
            err.println("kvtier: interrupted " + where + "; kept the journal " + q.journal() + ", sealed with those "
                + "events (./kvtier replay " + q.journal() + ")");
        } else {
            err.println("kvtier: interrupted " + where + "; the journal " + q.journal() + " could not be sealed");
        }
        interruption.kept();
        return ExitCodes.INTERRUPTED;
    }

    /**
     * The scenario with the user's overrides and, with {@code --swarm}, the seed's swarm draws after them, as an
     * exploration runs that seed (it says which it drew).
     */
    private Scenario load() throws ScenarioException {
        final Scenario base = ScenarioLoader.load(q.scenario(), q.sets(), q.swarm() ? SwarmCheck.DRAWS
            : SwarmCheck.FILE);
        if (!q.swarm()) {
            return base;
        }
        if (base.swarm().isEmpty()) {
            throw new ScenarioException(base.source() + " has no [swarm] table: --swarm has nothing to draw");
        }
        final SeedPlan plan = SeedPlan.draw(q.seed(), base.swarm(), q.sets());
        out.println("swarm draws of seed " + q.seed() + ": " + String.join(" ", plan.draws()));
        return ScenarioLoader.load(q.scenario(), plan.sets(), SwarmCheck.NONE);
    }

    private int refuse(final String message) {
        err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    /** Null, or why an output path cannot be written: a directory, a special file, or one of the run's inputs. */
    private String badOutputs() {
        final List<Path> inputs = new ArrayList<>();
        if (!ScenarioLoader.LIBRARY.contains(q.scenario())) {
            inputs.add(Path.of(q.scenario()));
        }
        if (q.real() != null) {
            inputs.add(q.real().device());
            inputs.add(new RealTarget(q.real().device(), q.real().indexDevice(), q.real().recover(), q.real().io(), 1)
                .indexPath());
        }
        final Path journal = q.journal();
        if (journal != null) {
            if (Files.exists(journal) && !Files.isDirectory(journal)) {
                return "--journal " + journal + " is a file; a journal is a directory (absent or empty)";
            }
            for (final Path input : inputs) {
                if (journal.toAbsolutePath().normalize().equals(input.toAbsolutePath().normalize())) {
                    return "--journal " + journal + " is also an input of this run; name another directory";
                }
            }
        }
        final List<Path> all = new ArrayList<>(inputs);
        if (journal != null) {
            all.add(journal);
        }
        final String report = q.report() == null ? null : OutputFile.check(q.report(), "--report", all);
        if (report != null || q.requests() == null) {
            return report;
        }
        if (q.report() != null && q.report().toAbsolutePath().normalize().equals(q.requests().toAbsolutePath()
            .normalize())) {
            return "--requests " + q.requests() + " is also the --report file; name another file";
        }
        return OutputFile.check(q.requests(), "--requests", all);
    }

    /** Hands the run to the root of its mode, {@code observers} seeing every event after the journal. */
    private Outcome dispatch(final Scenario sc, final JournalRecording recording,
                             final List<EventSink> observers) throws BadDevice {
        return switch (q.mode()) {
            case VIRTUAL -> {
                final Runs.Virtual v = Runs.virtualWithRequests(sc, q.seed(), recording, observers, out);
                yield new Outcome(v.report(), v.requests(), null);
            }
            case REAL -> {
                final Real d = q.real();
                final RealRun.Result real = Runs.real(sc, q.seed(), new RealTarget(d.device(), d.indexDevice(),
                    d.recover(), d.io(), d.timeoutSeconds() * 1_000_000_000L, d.force(), q.holder()), recording,
                    observers, out);
                yield new Outcome(real.report(), real.requests(), real);
            }
        };
    }

    /** Closes the journal, writes the report, and says how the run ended (its exit code). */
    private int finish(final Outcome outcome, final JournalRecording recording) {
        final RunReport r = outcome.report();
        final RealRun.Result real = outcome.real();
        if (!recording.finish(out, err)) {
            return ExitCodes.BAD_INPUT;
        }
        if (q.report() != null) {
            try {
                ReportJson.write(q.report(), r, real == null ? Map.of() : RunSummary.realMetrics(real));
            } catch (final IOException e) {
                err.println("kvtier: " + OutputFile.describe(q.report(), e));
                return ExitCodes.BAD_INPUT;
            }
        }
        if (q.requests() != null) {
            try {
                RequestsCsv.write(q.requests(), outcome.requests());
            } catch (final IOException e) {
                err.println("kvtier: " + OutputFile.describe(q.requests(), e));
                return ExitCodes.BAD_INPUT;
            }
        }
        if (real != null && real.shutdownError() != null && r.ok()) {
            err.println("kvtier: shutdown: " + real.shutdownError());
            return ExitCodes.BAD_INPUT;
        }
        if (!r.ok()) {
            recording.markViolation(r.violation(), err);
            err.println("FAILED: " + r.violation());
            err.println("seed " + q.seed() + "; reproduce: " + reproduce());
            return ExitCodes.INVARIANT;
        }
        return ExitCodes.OK;
    }

    private String reproduce() {
        final StringBuilder b = new StringBuilder("./kvtier run ").append(q.scenario()).append(" --seed ")
            .append(q.seed());
        final Real d = q.real();
        if (d != null) {
            b.append(" --mode real --device ").append(d.device()).append(" --io ")
                .append(d.io().name().toLowerCase(Locale.ROOT));
            if (d.indexDevice() != null) {
                b.append(" --index-device ").append(d.indexDevice());
            }
            if (d.recover()) {
                b.append(" --recover");
            }
            if (d.forceFlag() != null) {
                b.append(' ').append(d.forceFlag());
            }
        }
        for (final String s : q.sets()) {
            b.append(" --set ").append(s);
        }
        if (q.swarm()) {
            b.append(" --swarm");
        }
        return b.toString();
    }
}
