package dev.kvtier.cli;

import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kvtier run SCENARIO}: one run, every invariant checked at every event; in virtual time (the simulator's
 * root, {@code SimRun}) or with {@code --mode real} on a real disk (realio's root, {@code RealRun}). This class parses
 * the options, hands the run to its mode's root ({@link Dispatch}) and prints the summary; {@code --repeat N} runs it
 * again in the same JVM ({@link WarmRepeats}).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a scenario (a library name or a TOML path) in virtual time (or on a real disk with --mode "
        + "real) and check every invariant.")
public final class RunCommand implements Callable<Integer> {
    /** The longest --timeout: a day. */
    static final long TIMEOUT_SECONDS_MAX = 86_400;
    /** The most repetitions of --repeat. */
    static final int REPEAT_MAX = 1000;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name (${COMPLETION-CANDIDATES}) or path",
        completionCandidates = Library.class)
    String scenario;

    @Option(names = "--seed", description = "root seed (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "override a scenario key, e.g. core.l1Fraction=0.5")
    List<String> sets = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE", description = "write the run report as JSON")
    Path report;

    @Option(names = "--journal", paramLabel = "DIR",
        description = "write a journal of the run to DIR (absent or empty)")
    Path journal;

    @Option(names = "--journal-max-bytes", paramLabel = "BYTES", description = "the journal's disk holds at most "
        + "BYTES (injects a full journal disk): past it the journal keeps and seals the events before, and the run "
        + "exits 2 once done")
    long journalMaxBytes = Long.MAX_VALUE;

    @Option(names = "--mode", description = "virtual (default) or real")
    RunMode mode = RunMode.VIRTUAL;

    @Option(names = "--device", paramLabel = "PATH", description = "real mode: the L2 file or block device")
    Path device;

    @Option(names = "--io", description = "real mode: auto (io_uring, else FileChannel), uring or filechannel")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--index-device", paramLabel = "PATH",
        description = "real mode: the crash-safe index's file or block device (default: DEVICE.index)")
    Path indexDevice;

    @Option(names = "--recover", description = "real mode: recover the index from the index device (default: format "
        + "a fresh one); the workload's loads then verify the bytes of every recovered key they find")
    boolean recover;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "real mode: wall-time limit (default 3600)")
    long timeoutSeconds = 3600;

    @Option(names = "--repeat", paramLabel = "N", description = "virtual mode: run N times in this JVM (the first as "
        + "usual, then N-1 more without journal or report) and print each repetition's events/s; every digest must "
        + "equal the first's")
    int repeat = 1;

    @Mixin
    ForceOptions forceOptions = new ForceOptions();

    @Spec
    CommandSpec spec;

    /** Library names for help text. */
    static final class Library extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Library() {
            super(ScenarioLoader.LIBRARY);
        }
    }

    @Override
    public Integer call() {
        final PrintStream out = System.out;
        String bad = badOptions();
        final Scenario sc;
        try {
            sc = bad == null ? ScenarioLoader.load(scenario, sets) : null;
        } catch (final ScenarioException e) {
            return refuse(e.getMessage());
        }
        bad = bad != null ? bad : RunNeeds.check(sc, mode);
        bad = bad != null ? bad : badOutputs();
        if (bad != null) {
            return refuse(bad);
        }
        out.println("SEED=" + seed + " scenario=" + sc.name() + " mode=" + mode);
        sc.knobs().forEach((k, v) -> out.println("  " + k + " = " + v));
        final JournalRecording recording;
        try {
            recording = JournalRecording.open(journal, sc, seed, mode, journalMaxBytes, Invocation.holder(spec)
                .describe());
        } catch (final JournalException e) {
            return refuse(e.getMessage());
        }
        final long t0 = System.nanoTime();
        final long allocated0 = ThreadAllocation.bytesSoFar();
        final Outcome outcome;
        try (Progress progress = Progress.forRun(sc, mode, out)) {
            outcome = dispatch(sc, recording, progress, out);
        } catch (final BadDevice e) {
            recording.discard();
            return refuse(e.getMessage());
        } catch (final RuntimeException e) {
            System.err.println("kvtier: crash (a bug) at seed " + seed + ": " + e);
            e.printStackTrace();
            System.err.println("reproduce: " + reproduce());
            return ExitCodes.CRASH;
        }
        summary(out, outcome.report(), System.nanoTime() - t0);
        if (mode == RunMode.VIRTUAL) {
            final long allocated1 = ThreadAllocation.bytesSoFar();
            out.println(ThreadAllocation.describe(allocated0 < 0 ? -1 : allocated1 - allocated0,
                outcome.report().events()));
        }
        if (outcome.real() != null) {
            realSummary(out, outcome.real());
        }
        final String differs = repeat > 1 ? WarmRepeats.after(sc, seed, repeat, outcome.report(), out) : null;
        if (differs != null) {
            recording.finish(out, System.err);
            System.err.println("kvtier: not deterministic (a bug): " + differs);
            return ExitCodes.CRASH;
        }
        return finish(outcome, recording, out);
    }

    private static int refuse(final String message) {
        System.err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    /** What a run of either mode returned: its report, and in real mode what only the real root knows. */
    private record Outcome(RunReport report, RealRun.Result real) {}

    /** Null, or what is wrong with the options' combination (each option parsed on its own already). */
    private String badOptions() {
        if ((mode == RunMode.REAL) != (device != null)) {
            return "--device PATH goes with --mode real (and only with it)";
        }
        if (device == null && (indexDevice != null || recover || forceOptions.any())) {
            return "--index-device, --recover, --force and --force-wipe go with --mode real";
        }
        if (timeoutSeconds < 1 || timeoutSeconds > TIMEOUT_SECONDS_MAX) {
            return "--timeout must be a number of seconds in [1, " + TIMEOUT_SECONDS_MAX + "], got " + timeoutSeconds;
        }
        if (repeat < 1 || repeat > REPEAT_MAX || (repeat > 1 && mode != RunMode.VIRTUAL)) {
            return "--repeat must be in [1, " + REPEAT_MAX + "] and goes with virtual mode, got " + repeat;
        }
        if (journalMaxBytes < 1) {
            return "--journal-max-bytes must be positive, got " + journalMaxBytes;
        }
        if (journalMaxBytes != Long.MAX_VALUE && journal == null) {
            return "--journal-max-bytes goes with --journal DIR";
        }
        return null;
    }

    /** Null, or why an output path cannot be written: a directory, a special file, or one of the run's inputs. */
    private String badOutputs() {
        final List<Path> inputs = new ArrayList<>();
        if (!ScenarioLoader.LIBRARY.contains(scenario)) {
            inputs.add(Path.of(scenario));
        }
        if (device != null) {
            inputs.add(device);
            inputs.add(new RealTarget(device, indexDevice, recover, io, 1).indexPath());
        }
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
        if (report != null) {
            final List<Path> all = new ArrayList<>(inputs);
            if (journal != null) {
                all.add(journal);
            }
            return OutputFile.check(report, "--report", all);
        }
        return null;
    }

    /** Hands the run to the root of its mode. */
    private Outcome dispatch(final Scenario sc, final JournalRecording recording, final Progress progress,
                             final PrintStream out) throws BadDevice {
        return switch (mode) {
            case VIRTUAL -> new Outcome(Dispatch.virtual(sc, seed, recording, progress.sinks()), null);
            case REAL -> {
                final RealRun.Result real = Dispatch.real(sc, seed, new RealTarget(device, indexDevice, recover, io,
                    timeoutSeconds * 1_000_000_000L, forceOptions.force(), Invocation.holder(spec)), recording,
                    progress.sinks(), out);
                yield new Outcome(real.report(), real);
            }
        };
    }

    /** Closes the journal, writes the report, and says how the run ended (its exit code). */
    private int finish(final Outcome outcome, final JournalRecording recording, final PrintStream out) {
        final RunReport r = outcome.report();
        final RealRun.Result real = outcome.real();
        if (!recording.finish(out, System.err)) {
            return ExitCodes.BAD_INPUT;
        }
        if (report != null) {
            try {
                ReportJson.write(report, r, real == null ? Map.of() : realMetrics(real));
            } catch (final IOException e) {
                System.err.println("kvtier: " + OutputFile.describe(report, e));
                return ExitCodes.BAD_INPUT;
            }
        }
        if (real != null && real.shutdownError() != null && r.ok()) {
            System.err.println("kvtier: shutdown: " + real.shutdownError());
            return ExitCodes.BAD_INPUT;
        }
        if (!r.ok()) {
            System.err.println("FAILED: " + r.violation());
            System.err.println("seed " + seed + "; reproduce: " + reproduce());
            return ExitCodes.INVARIANT;
        }
        return ExitCodes.OK;
    }

    private String reproduce() {
        final StringBuilder b = new StringBuilder("./kvtier run ").append(scenario).append(" --seed ").append(seed);
        if (device != null) {
            b.append(" --mode real --device ").append(device).append(" --io ")
                .append(io.name().toLowerCase(Locale.ROOT));
            if (indexDevice != null) {
                b.append(" --index-device ").append(indexDevice);
            }
            if (recover) {
                b.append(" --recover");
            }
            if (forceOptions.any()) {
                b.append(forceOptions.forceWipe ? " --force-wipe" : " --force");
            }
        }
        for (final String s : sets) {
            b.append(" --set ").append(s);
        }
        return b.toString();
    }

    static void summary(final PrintStream out, final RunReport r, final long wallNs) {
        final RunReport.Metrics m = r.metrics();
        switch (r.mode()) {
            case REAL -> out.printf("events %,d  run %.3f s of wall time (%.3f s with set-up and tear-down), peak heap "
                + "%d MiB%n", r.events(), r.elapsedNanos() / 1e9, wallNs / 1e9, peakHeapBytes() >> 20);
            case VIRTUAL -> out.printf("events %,d  virtual %.3f s  wall %.3f s  (%.0f events/s, virtual/wall %.1fx, "
                + "peak heap %d MiB)%n", r.events(), r.elapsedNanos() / 1e9, wallNs / 1e9, r.events() / (wallNs / 1e9),
                (double) r.elapsedNanos() / wallNs, peakHeapBytes() >> 20);
        }
        for (final RunReport.Phase p : r.phases()) {
            out.printf("phase %-6s %.3f s%n", p.name(), p.durationNanos() / 1e9);
        }
        for (final Map.Entry<String, Percentiles> e : m.ttftNanos().entrySet()) {
            out.printf("ttft  %-6s mean %.1f ms  p50 %.1f ms  p99 %.1f ms  max %.1f ms  (%d requests)%n", e.getKey(),
                e.getValue().mean() / 1e6, e.getValue().p50() / 1e6, e.getValue().p99() / 1e6,
                e.getValue().max() / 1e6, e.getValue().count());
        }
        for (final Map.Entry<String, RunMetrics.EnginePhase> e : m.engine().entrySet()) {
            final RunMetrics.EnginePhase g = e.getValue();
            out.printf("steps %-6s %d steps  mean %.1f ms  p99 %.1f ms; blocked on the store: calls %.3f s, staging"
                + " %.3f s; loads waited %.3f s (%d, p99 %.1f ms)%n", e.getKey(), g.stepNanos().count(),
                g.stepNanos().mean() / 1e6, g.stepNanos().p99() / 1e6, g.scheduleNanos() / 1e9,
                g.stagingNanos() / 1e9, g.loadWaitNanos().mean() * g.loadWaitNanos().count() / 1e9,
                g.loadWaitNanos().count(), g.loadWaitNanos().p99() / 1e6);
        }
        out.printf("stored %.2f GiB  loaded %.2f GiB  L1 hit %.3f  L2 writes %d (mean %.1f MiB)  L2 reads %d%n",
            m.storedBytes() / (double) (1L << 30), m.loadedBytes() / (double) (1L << 30), m.l1HitRatio(),
            m.writeOps(), m.meanWriteBytes() / (1 << 20), m.l2Reads());
        if (m.coldPhaseNanos() > 0) {
            out.printf("store bandwidth %.2f GB/s (bytes stored / cold phase)%n",
                m.storedBytes() / (m.coldPhaseNanos() / 1e9) / 1e9);
        }
        out.printf("store ack p50 %.2f ms p99 %.2f ms  load p50 %.2f ms p99 %.2f ms  server busy %.1f %%%n",
            m.storeAckNanos().p50() / 1e6, m.storeAckNanos().p99() / 1e6, m.loadNanos().p50() / 1e6,
            m.loadNanos().p99() / 1e6, 100.0 * m.serverBusyFraction());
        probes(out, r);
        out.println("digest " + r.eventDigest());
        out.println(r.ok() ? "OK: all invariants held" : "VIOLATION: " + r.violation());
    }

    /** The coverage probes the run reached, with how many times, wrapped at about 120 columns. */
    static void probes(final PrintStream out, final RunReport r) {
        final StringBuilder line = new StringBuilder("probes " + r.probes().size() + " of "
            + ProbeCatalogue.all().size() + " reached:");
        if (r.probes().isEmpty()) {
            line.append(" none");
        }
        for (final Map.Entry<String, Long> e : r.probes().entrySet()) {
            final String item = " " + e.getKey() + " x" + e.getValue();
            if (line.length() + item.length() > 118) {
                out.println(line);
                line.setLength(0);
                line.append("      ");
            }
            line.append(item);
        }
        out.println(line);
    }

    /** The real run's index figures, for the report's metrics. */
    static Map<String, Object> realMetrics(final RealRun.Result real) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("recoveredChunks", real.index() == null ? 0 : real.index().chunks());
        m.put("recoveredRecords", real.index() == null ? 0 : real.index().records());
        m.put("indexBytesRead", real.index() == null ? 0 : real.index().bytesRead());
        m.put("indexOpenNanos", real.index() == null ? 0 : real.index().openNanos());
        m.put("durableCommits", real.durableCommits());
        real.work().byName().forEach((kind, t) -> {
            m.put(kind + "Bytes", t.bytes());
            m.put(kind + "Nanos", t.ns());
        });
        return m;
    }

    private static void realSummary(final PrintStream out, final RealRun.Result real) {
        if (real.index() != null) {
            out.printf("index opened in %.1f ms: %d chunks recovered (%d log records); %d durable commits; %s%n",
                real.index().openNanos() / 1e6, real.index().chunks(), real.index().records(), real.durableCommits(),
                real.shutdownError() == null ? "shut down durably" : "shutdown failed: " + real.shutdownError());
        }
        out.println("host byte work on the loop thread: " + real.work().describe());
    }

    /** Peak heap use over the JVM's life (sum of the heap pools' peaks). */
    static long peakHeapBytes() {
        long peak = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
