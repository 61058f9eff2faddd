package dev.kvtier.cli;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The child JVM of the kill test: runs a real-mode workload that keeps writing (thousands of distinct prompts through a
 * small L2 ring, which wraps every few requests) on two files, and prints one line per event the parent needs:
 * {@code OPENED} once the index is formatted (its IndexOpened decision), {@code COMMIT hi lo allocationId} for every
 * commit acknowledged (in durable mode, only after its bytes and its index record are durable),
 * {@code EVICT hi lo allocationId} for every chunk that leaves the ring. Each line is written to the pipe before the
 * core goes on, so the core submits no I/O the parent has not been told about; the parent kills this JVM with SIGKILL
 * mid-run.
 *
 * <p>Arguments: {@code SCENARIO.toml DATA INDEX auto|uring|filechannel}.
 */
public final class CrashWorker {
    /** Wall-time limit, in case the parent never kills the worker. */
    private static final long TIMEOUT_NS = 120_000_000_000L;
    /** 64 KiB slots; each request stores 16 of them (1 MiB); the ring holds 512 slots (32 requests). */
    static final long L2_BYTES = 32L << 20;

    private CrashWorker() {}

    /** The worker's scenario in commit mode {@code mode} ("l1" or "durable"). */
    static String scenario(final String mode) {
        return """
            [scenario]
            name = "crash-worker"
            [model]
            name = "tiny"
            kvHeads = 1
            headDim = 64
            layers = 16
            blockTokens = 16
            dtypeBytes = 2
            [workload]
            prompts = 20000
            inputTokens = 256
            concurrency = 2
            [engine]
            prefillNsPerToken = 0
            stepFixedNs = 0
            [[phase]]
            name = "cold"
            requests = 20000
            [core]
            l1Bytes = 2097152
            l2Bytes = %d
            stagingBatchBytes = 262144
            commitMode = "%s"
            """.formatted(L2_BYTES, mode);
    }

    public static void main(final String[] args) throws Exception {
        final Scenario sc = ScenarioLoader.load(args[0], List.of());
        final IoChoice choice = IoChoice.valueOf(args[3].toUpperCase(java.util.Locale.ROOT));
        final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
            StandardCharsets.US_ASCII);
        // The root's progress lines go to stderr: stdout carries only the lines the parent parses.
        final PrintStream progress = System.err;
        try (RealRun run = RealRun.open(sc.spec(), 1, new RealTarget(Path.of(args[1]), Path.of(args[2]), false,
            choice, TIMEOUT_NS), List.of(printer(out)), progress)) {
            final RealRun.Result r = run.run();
            out.println("FINISHED " + (r.report().ok() ? "ok" : r.report().violation()));
        }
    }

    private static EventSink printer(final PrintStream out) {
        return e -> {
            switch (e) {
                case CoreEvent.Committed c -> line(out, "COMMIT", c.key().hi(), c.key().lo(), c.allocationId());
                case CoreEvent.RingEvicted v -> line(out, "EVICT", v.key().hi(), v.key().lo(), v.allocationId());
                case CoreEvent.IndexOpened o -> out.println("OPENED");
                default -> {
                    // the parent needs the index opening, commits and evictions only
                }
            }
        };
    }

    private static void line(final PrintStream out, final String what, final long hi, final long lo,
                             final long allocationId) {
        out.println(what + " " + hi + " " + lo + " " + allocationId);
        if (out.checkError()) {
            throw new IllegalStateException("stdout closed: the parent is gone");
        }
    }
}
