package dev.kvtier.lab.run;

import dev.kvtier.harness.metrics.MissReason;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.metrics.TokenSources;
import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.harness.run.RunSpec;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A run's summary as {@code kvtier run} prints it, and the real run's figures its JSON report adds. */
public final class RunSummary {
    private RunSummary() {}

    /** Prints the summary of {@code r}, which took {@code wallNs} of wall time with its set-up and tear-down. */
    public static void summary(final PrintStream out, final RunReport r, final long wallNs) {
        summary(out, r, wallNs, null);
    }

    /** As {@link #summary(PrintStream, RunReport, long)}, with the L2 drive's bandwidth and wear when {@code drive}. */
    public static void summary(final PrintStream out, final RunReport r, final long wallNs, final DriveWear drive) {
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
            out.printf("ttft  %-6s %s%n", e.getKey(), distribution(e.getValue(), "requests"));
        }
        requests(out, m);
        for (final Map.Entry<String, RunMetrics.EnginePhase> e : m.engine().entrySet()) {
            final RunMetrics.EnginePhase g = e.getValue();
            out.printf("steps %-6s %d steps  mean %.1f ms  p99 %.1f ms; blocked on the store: calls %.3f s, staging"
                + " %.3f s; loads waited %.3f s (%d, p99 %.1f ms)%n", e.getKey(), g.stepNanos().count(),
                g.stepNanos().mean() / 1e6, g.stepNanos().p99() / 1e6, g.scheduleNanos() / 1e9,
                g.stagingNanos() / 1e9, g.loadWaitNanos().mean() * g.loadWaitNanos().count() / 1e9,
                g.loadWaitNanos().count(), g.loadWaitNanos().p99() / 1e6);
        }
        tokens(out, m.tokenSources());
        out.printf("stored %.2f GiB  loaded %.2f GiB  L1 hit %.3f  L2 writes %d (mean %.1f MiB)  L2 reads %d%n",
            m.storedBytes() / (double) (1L << 30), m.loadedBytes() / (double) (1L << 30), m.l1HitRatio(),
            m.writeOps(), m.meanWriteBytes() / (1 << 20), m.l2Reads());
        if (drive != null) {
            drive.print(out, r);
        }
        if (m.coldPhaseNanos() > 0) {
            out.printf("store bandwidth %.2f GB/s (bytes stored / cold phase)%n",
                m.storedBytes() / (m.coldPhaseNanos() / 1e9) / 1e9);
        }
        out.printf("store ack  %s%n", distribution(m.storeAckNanos(), "stores"));
        out.printf("load       %s%n", distribution(m.loadNanos(), "loads"));
        out.printf("server busy %.1f %%%n", 100.0 * m.serverBusyFraction());
        probes(out, r);
        out.println("digest " + r.eventDigest());
        out.println(r.ok() ? "OK: all invariants held" : "VIOLATION: " + r.violation());
    }

    /**
     * What invariant 16's time bounds mean for this run: the request bound runs from the store's lookup (queueing in
     * the engine before it not counted) to the request's last token; the TTFT bound from arrival to first token.
     */
    public static void bounds(final PrintStream out, final RunSpec spec) {
        out.printf(Locale.ROOT, "bounds: each request ends within %d s of its lookup (sim.livenessBoundSeconds; "
            + "queueing before the lookup not counted); %s%n", spec.livenessBoundNs() / 1_000_000_000L,
            spec.ttftBoundNs() == 0 ? "no TTFT bound (sim.ttftBoundMs)" : String.format(Locale.ROOT,
                "first token within %d ms of arrival, queueing included (sim.ttftBoundMs)",
                spec.ttftBoundNs() / 1_000_000));
    }

    /**
     * One distribution in milliseconds: the mean, p50, p90, p95, p99, p99.9 and max, and the count behind them; a
     * percentile with fewer samples than it needs (1 / (1 - q)) is marked {@code *} and the line says why.
     */
    public static String distribution(final Percentiles p, final String what) {
        final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "mean %s", ms(p.mean())));
        boolean thin = false;
        for (final Map.Entry<String, Double> q : Percentiles.SHOWN) {
            b.append("  ").append(q.getKey()).append(' ').append(ms((double) p.at(q.getKey())));
            if (p.thin(q.getValue())) {
                b.append('*');
                thin = true;
            }
        }
        b.append("  max ").append(ms((double) p.max()))
            .append(String.format(Locale.ROOT, "  (%,d %s", p.count(), what));
        return b.append(thin ? "; * fewer than 1 / (1 - q) samples)" : ")")
            .toString();
    }

    private static String ms(final double ns) {
        return String.format(Locale.ROOT, ns >= 1e7 ? "%.1f ms" : "%.3f ms", ns / 1e6);
    }

    /**
     * Where the run's input tokens came from: a table of tokens and per cent of the input, loaded from L1, from L2, or
     * prefilled by the engine, and the prefilled ones by why they were not loaded.
     */
    static void tokens(final PrintStream out, final TokenSources t) {
        final double in = Math.max(1, t.input());
        out.printf("%-58s %14s  %7s%n", "tokens from", "tokens", "% input");
        row(out, "  L1", t.fromL1(), in);
        row(out, "  L2", t.fromL2(), in);
        row(out, "  prefilled", t.prefilled(), in);
        for (final MissReason m : MissReason.values()) {
            row(out, "    " + m.label(), t.prefilledBy().get(m), in);
        }
        row(out, "  input", t.input(), in);
    }

    private static void row(final PrintStream out, final String label, final long tokens, final double input) {
        out.printf("%-58s %,14d  %5.1f %%%n", label, tokens, 100 * tokens / input);
    }

    /** Per phase: queueing, time per output token, end-to-end latency and throughput. */
    private static void requests(final PrintStream out, final RunReport.Metrics m) {
        for (final Map.Entry<String, RunMetrics.RequestPhase> e : m.requests().entrySet()) {
            final RunMetrics.RequestPhase q = e.getValue();
            out.printf(
                "latency %-6s queue p50 %.1f ms p99 %.1f ms  tpot p50 %.2f ms p99 %.2f ms  end-to-end p50 %.1f ms"
                    + " p99 %.1f ms%n",
                e.getKey(), q.queueNanos().p50() / 1e6, q.queueNanos().p99() / 1e6,
                q.tpotNanos().p50() / 1e6, q.tpotNanos().p99() / 1e6, q.endToEndNanos().p50() / 1e6,
                q.endToEndNanos().p99() / 1e6);
            out.printf("throughput %-6s %.2f requests/s  %.1f output tokens/s  (%d output tokens)%n", e.getKey(),
                q.requestsPerSec(), q.outputTokensPerSec(), q.outputTokens());
        }
    }

    /** The coverage probes the run reached, with how many times, wrapped at about 120 columns. */
    public static void probes(final PrintStream out, final RunReport r) {
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
    public static Map<String, Object> realMetrics(final RealRun.Result real) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("recoveredChunks", real.index() == null ? 0 : real.index().chunks());
        m.put("recoveredRecords", real.index() == null ? 0 : real.index().records());
        m.put("indexBytesRead", real.index() == null ? 0 : real.index().bytesRead());
        m.put("indexOpenNanos", real.index() == null ? 0 : real.index().openNanos());
        m.put("durableCommits", real.durableCommits());
        m.put("diskBusyNanos", real.disk().busyNanos());
        m.put("diskElapsedNanos", real.disk().elapsedNanos());
        m.put("diskBusyFraction", real.disk().busyFraction());
        m.put("diskMeanQueueDepth", real.disk().meanQueueDepth());
        m.put("diskReadBytes", real.disk().readBytes());
        m.put("diskWriteBytes", real.disk().writeBytes());
        m.put("loopNanos", real.loop().wallNs());
        m.put("loopCpuNanos", real.loop().cpuNs());
        real.work().byName().forEach((kind, t) -> {
            m.put(kind + "Bytes", t.bytes());
            m.put(kind + "Nanos", t.ns());
        });
        return m;
    }

    /** Prints what only a real run knows: the index's recovery and shutdown, the byte work on the loop thread. */
    public static void realSummary(final PrintStream out, final RealRun.Result real) {
        if (real.index() != null) {
            out.printf("index opened in %.1f ms: %d chunks recovered (%d log records); %d durable commits; %s%n",
                real.index().openNanos() / 1e6, real.index().chunks(), real.index().records(), real.durableCommits(),
                real.shutdownError() == null ? "shut down durably" : "shutdown failed: " + real.shutdownError());
        }
        out.println("host byte work on the loop thread: " + real.work().describe());
        out.println(real.loop().describe());
        out.println(real.disk().describe());
    }

    /** Peak heap use over the JVM's life (sum of the heap pools' peaks). */
    public static long peakHeapBytes() {
        long peak = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
