package dev.kvtier.bench;

import java.io.PrintStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code ./kvtier bench [PATTERN...] [--full] [--jmh-log FILE]}: runs the benchmarks whose names match a pattern
 * (a regular expression, as JMH takes them; all by default) and prints one table: each benchmark's score and, for
 * those that go through events, events per second and nanoseconds per event. The default is a quick pass (one fork,
 * two warm-up and three measured iterations of one second); {@code --full} takes three forks of five and five.
 * JMH's own log goes to {@code target/jmh.log} unless {@code --jmh-log} names another file. Forks inherit this JVM's
 * flags (the launcher's).
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(final String[] args) throws RunnerException {
        final List<String> patterns = new ArrayList<>();
        boolean full = false;
        String log = "target/jmh.log";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--full" -> full = true;
                case "--jmh-log" -> log = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: kvtier bench [PATTERN...] [--full] [--jmh-log FILE]");
                    return;
                }
                default -> patterns.add(args[i]);
            }
        }
        final ChainedOptionsBuilder options = new OptionsBuilder()
            .forks(full ? 3 : 1)
            .warmupIterations(full ? 5 : 2).warmupTime(TimeValue.seconds(1))
            .measurementIterations(full ? 5 : 3).measurementTime(TimeValue.seconds(1))
            .output(log).verbosity(VerboseMode.NORMAL);
        if (patterns.isEmpty()) {
            options.include("dev\\.kvtier\\.bench\\..*");
        }
        for (final String p : patterns) {
            options.include(p);
        }
        System.out.println("kvtier bench: " + (full ? "full" : "quick") + " pass; JMH's log: " + log);
        final Collection<RunResult> results = new Runner(options.build()).run();
        print(results, System.out);
        final List<String> failed;
        try {
            failed = failures(Files.readAllLines(Path.of(log)));
        } catch (final IOException e) {
            throw new UncheckedIOException("reading JMH's log " + log, e);
        }
        for (final String f : failed) {
            System.out.println("FAILED " + f + ": no score (its error is in " + log + ")");
        }
        if (!failed.isEmpty()) {
            System.exit(1);
        }
    }

    /**
     * The benchmarks (with their parameters) that JMH's log shows failing: a failed benchmark leaves no result, so the
     * table alone would just lack its line.
     */
    static List<String> failures(final List<String> logLines) {
        final Set<String> failed = new LinkedHashSet<>();
        String benchmark = "";
        String parameters = "";
        for (final String line : logLines) {
            if (line.startsWith("# Benchmark: ")) {
                benchmark = line.substring("# Benchmark: ".length()).replace("dev.kvtier.bench.", "");
                parameters = "";
            } else if (line.startsWith("# Parameters: ")) {
                parameters = " " + line.substring("# Parameters: ".length());
            } else if (line.contains("<failure>")) {
                failed.add(benchmark + parameters);
            }
        }
        return new ArrayList<>(failed);
    }

    /** One line per benchmark and parameter set. */
    static void print(final Collection<RunResult> results, final PrintStream out) {
        out.printf(Locale.ROOT, "%-58s %16s %10s %-8s %14s %10s%n", "benchmark", "score", "error", "unit",
            "events/s", "ns/event");
        for (final RunResult r : results) {
            final String name = r.getParams().getBenchmark().replace("dev.kvtier.bench.", "") + params(r);
            final Result<?> primary = r.getPrimaryResult();
            final Result<?> events = r.getSecondaryResults().get("events");
            final String rate = events == null ? "" : String.format(Locale.ROOT, "%,.0f", events.getScore());
            final String per = events == null || events.getScore() <= 0 ? ""
                : String.format(Locale.ROOT, "%.1f", 1e9 / events.getScore());
            out.printf(Locale.ROOT, "%-58s %,16.3f %10.3f %-8s %14s %10s%n", name, primary.getScore(),
                primary.getScoreError(), primary.getScoreUnit(), rate, per);
        }
    }

    private static String params(final RunResult r) {
        final Map<String, String> values = new TreeMap<>();
        for (final String key : r.getParams().getParamsKeys()) {
            values.put(key, r.getParams().getParam(key));
        }
        return values.isEmpty() ? "" : " " + values;
    }
}
