package dev.kvtier.lab.crash;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.realio.run.RecoveryCheck;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One process of a crash campaign ({@link CrashCampaign}), started with a {@link ChildJob} file: a fresh JVM that
 * first recovers the files the previous kill left and judges what it finds ({@link RecoveryCheck}, {@link Judge}),
 * then runs the next kill's scenario for real and dies of SIGKILL at its point ({@link AckWriter}, {@link SelfKill}).
 * So every recovery happens in a process that never saw the run it recovers, and each kill costs one JVM start.
 *
 * <p>Exit status: killed by SIGKILL (137) after a run, 0 when there was nothing to run (the last verification, a
 * finished measuring run, or a failed verdict that stops the campaign), 2 when a file or the scenario cannot be
 * used (one line on stderr), 3 for a bug.
 */
public final class CampaignChild {
    private CampaignChild() {}

    public static void main(final String[] args) {
        System.exit(run(Path.of(args[0]), System.out, System.err));
    }

    /** Does the job in {@code jobFile}; the exit status, unless it died of its kill. */
    static int run(final Path jobFile, final PrintStream out, final PrintStream err) {
        try {
            final ChildJob job = ChildJob.read(jobFile);
            final Scenario sc = ScenarioLoader.load(job.scenario(), job.sets());
            if (job.verifyKill() != null) {
                final KillVerdict verdict = verify(job, sc, out);
                Files.writeString(Path.of(job.verdict()), ReportJson.toJson(verdict));
                if (!verdict.ok() && !job.keepGoing()) {
                    return ExitCodes.OK;
                }
            }
            if (job.runKill() != null) {
                runAndDie(job, sc, out);
            }
            return ExitCodes.OK;
        } catch (final ScenarioException | BadDevice e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (final IOException | RuntimeException e) {
            err.println("kvtier: crash (a bug) in a campaign process: " + e);
            e.printStackTrace(err);
            return ExitCodes.CRASH;
        }
    }

    /** Recovers the previous kill's files and judges them against its acknowledgement log. */
    private static KillVerdict verify(final ChildJob job, final Scenario sc, final PrintStream out) throws IOException {
        final AckLog acks = AckLog.read(Path.of(job.verifyAcks()));
        final Map<PrefixKey, Long> tags = new HashMap<>();
        for (final AckLog.Allocation a : acks.allocations().values()) {
            tags.put(a.key(), a.tag());
        }
        final CoreConfig config = sc.spec().core();
        out.println(uptime() + "recovering kill " + job.verifyKill() + " (" + job.verifyPoint() + ")");
        final RecoveryCheck.Result rec;
        try {
            rec = RecoveryCheck.run(config, target(job, true), k -> tags.getOrDefault(k, WorkloadDriver.tagOf(k)),
                out);
        } catch (final BadDevice e) {
            return KillVerdict.broken(job.verifyKill(), job.verifyPoint(), "recovery failed: " + e.getMessage());
        }
        writeRecovered(Path.of(job.recovered()), rec);
        out.printf(Locale.ROOT, "%srecovered %d chunks (%s, %d log records) in %.1f ms, and read them back%n",
            uptime(), rec.chunks().size(), rec.fromDisk() ? "from a checkpoint" : "no checkpoint: empty",
            rec.records(), rec.openNanos() / 1e6);
        return Judge.judge(job.verifyKill(), job.verifyPoint(), config.commitMode(), acks, rec);
    }

    private static void writeRecovered(final Path file, final RecoveryCheck.Result rec) throws IOException {
        final List<String> lines = new ArrayList<>();
        lines.add("# fromDisk " + rec.fromDisk() + " records " + rec.records() + " bytesRead " + rec.bytesRead()
            + " openNanos " + rec.openNanos());
        lines.add("# key allocation startSlot slotCount outcome detail");
        for (final RecoveryCheck.Chunk c : rec.chunks()) {
            lines.add(c.key() + " " + c.allocationId() + " " + c.startSlot() + " " + c.slotCount() + " " + c.outcome()
                + (c.detail().isEmpty() ? "" : " " + c.detail()));
        }
        Files.write(file, lines, StandardCharsets.US_ASCII);
    }

    /** Runs the kill's scenario, writing its acknowledgement log, and dies at its point (or after its end). */
    private static void runAndDie(final ChildJob job, final Scenario sc,
                                  final PrintStream out) throws IOException, BadDevice {
        final KillPoint point = job.runPoint() == null ? null : KillPoint.parse(job.runPoint());
        final long logOffset = KvServer.indexLayout(sc.spec().core()).logOffset();
        try (AckWriter acks = new AckWriter(Path.of(job.runAcks()), point, logOffset, new SelfKill())) {
            out.println(uptime() + "kill " + job.runKill() + ": running with seed " + job.runKill() + ", to die at "
                + (point == null ? "nothing (the measuring run)" : point));
            final RealRun.Result r = Runs.real(sc, job.runKill(), target(job, false), List.of(acks), out);
            if (!r.report().ok()) {
                acks.note("violation " + r.report().violation().replace('\n', ' '));
            }
            if (r.shutdownError() != null) {
                acks.note("shutdown-error " + r.shutdownError().replace('\n', ' '));
            }
            if (point == null) {
                acks.note("finished");
                return;
            }
            acks.killAtEnd();
        }
    }

    /** The JVM's age, as a prefix of a progress line: where a campaign process spends its time. */
    private static String uptime() {
        return String.format(Locale.ROOT, "[%.3f s] ", ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
    }

    private static RealTarget target(final ChildJob job, final boolean recover) {
        return new RealTarget(Path.of(job.device()), null, recover, IoChoice.valueOf(job.io().toUpperCase(
            Locale.ROOT)), job.timeoutSeconds() * 1_000_000_000L, Force.NONE, Holder.current(job.holder()));
    }
}
