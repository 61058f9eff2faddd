package dev.kvtier.lab.run;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.scenarios.Scenario;
import java.io.Console;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long run, from its events (a sink beside the run's own; it reads the wall clock, which only the CLI
 * may): nothing for the first {@link #QUIET_NS}, then, on a terminal, a bar of finished requests over the
 * scenario's total with the phase; otherwise (a log, CI) a line every {@link #LINE_EVERY_NS}. The wall clock is read
 * once every {@link #CHECK_EVERY} events, so the sink costs nothing measurable. As the explore command does.
 */
public final class Progress implements EventSink, AutoCloseable {
    /** A run shorter than this shows no progress. */
    public static final long QUIET_NS = 3_000_000_000L;
    /** Between two progress lines when the output is not a terminal. */
    public static final long LINE_EVERY_NS = 10_000_000_000L;
    /** Events between two looks at the wall clock. */
    public static final int CHECK_EVERY = 4096;

    private final PrintStream out;
    private final boolean terminal;
    private final long totalRequests;
    private final String what;
    private final LongSupplier clockNs;
    private final long startNs;
    private long events;
    private long finished;
    private String phase = "";
    private long nextLineNs;
    private ProgressBar bar;

    /** Progress printed to {@code out}, timed by {@code clockNs} (wall-clock nanoseconds; tests give their own). */
    Progress(final PrintStream out, final boolean terminal, final long totalRequests, final String what,
             final LongSupplier clockNs) {
        this.out = out;
        this.terminal = terminal;
        this.totalRequests = totalRequests;
        this.what = what;
        this.clockNs = clockNs;
        this.startNs = clockNs.getAsLong();
        this.nextLineNs = startNs + QUIET_NS;
    }

    /** Progress of a run of {@code sc} in {@code mode}, printed to {@code out}. */
    public static Progress forRun(final Scenario sc, final RunMode mode, final PrintStream out) {
        final long total = sc.spec().workload().phases().stream().mapToLong(PhaseSpec::requests).sum();
        return new Progress(out, terminal(), total, switch (mode) {
            case VIRTUAL -> "virtual run";
            case REAL -> "real run";
        }, System::nanoTime);
    }

    /** True when standard output is a terminal (a bar), false for a pipe or a file (lines). */
    // Null-safe and asking isTerminal(): since JDK 22 System.console() is there without a terminal too (a CI log).
    @SuppressWarnings("SystemConsoleNull")
    public static boolean terminal() {
        final Console console = System.console();
        return console != null && console.isTerminal();
    }

    /** This progress as the run's extra sinks. */
    List<EventSink> sinks() {
        return List.of(this);
    }

    @Override
    public void emit(final CoreEvent event) {
        if (event instanceof CoreEvent.RequestFinished) {
            finished++;
            if (bar != null) {
                bar.stepTo(Math.min(finished, totalRequests));
            }
        } else if (event instanceof CoreEvent.PhaseStarted p) {
            phase = p.phase();
            if (bar != null) {
                bar.setExtraMessage("phase " + phase);
            }
        }
        if (++events % CHECK_EVERY == 0) {
            look(clockNs.getAsLong());
        }
    }

    private void look(final long nowNs) {
        if (nowNs < nextLineNs || bar != null) {
            return;
        }
        if (terminal) {
            bar = new ProgressBarBuilder().setTaskName(what).setInitialMax(totalRequests)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(out)).build();
            bar.stepTo(Math.min(finished, totalRequests));
            bar.setExtraMessage("phase " + phase);
            return;
        }
        out.printf(Locale.ROOT, "progress: %s, %,d of %,d requests finished, phase %s, %,d events, %.0f s%n", what,
            finished, totalRequests, phase, events, (nowNs - startNs) / 1e9);
        nextLineNs = nowNs + LINE_EVERY_NS;
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
