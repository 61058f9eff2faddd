package dev.kvtier.lab.crash;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.ReportJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The kills of one shard, one fresh process each ({@link CampaignProcess}): process j recovers and judges kill j-1's
 * files, then runs kill j and dies of SIGKILL at its point; one last process recovers the last kill. A planted bug
 * ({@link PlantedBug}) is applied to the files between a kill and its recovery. Each verdict is printed as it comes;
 * a failing kill keeps its files, and without {@code keepGoing} the loop stops there (the process that judged it runs
 * nothing more, so the device holds what the failing recovery saw).
 */
final class KillLoop {
    private final CrashCampaign.Request q;
    private final CampaignFiles files;
    private final CoreConfig config;
    private final PrintStream out;
    private final List<KillVerdict> verdicts = new ArrayList<>();
    private final List<CampaignSummary.Failure> failures = new ArrayList<>();
    private Long stoppedAt;
    private String refused;
    private boolean crashed;

    KillLoop(final CrashCampaign.Request q, final CampaignFiles files, final CoreConfig config, final PrintStream out) {
        this.q = q;
        this.files = files;
        this.config = config;
        this.out = out;
    }

    /** The measuring run's seed: one no kill uses, so no kill finds its keys' bytes on the device. */
    static final long MEASURING_SEED = Long.MAX_VALUE;

    /** Runs the scenario once to its end and measures its life; null when it could not (see {@link #refused}). */
    Life measure() throws IOException, InterruptedException {
        final List<Path> m = files.measuring();
        new ChildJob(q.scenario(), q.sets(), files.device().toString(), q.io(), q.timeoutSeconds(), q.holder(), null,
            null, null, null, null, MEASURING_SEED, null, m.get(2).toString(), false).write(m.get(0));
        final long t0 = System.nanoTime();
        final CampaignProcess.Ended e = CampaignProcess.run(m.get(0), m.get(1), limitSeconds());
        final long wall = System.nanoTime() - t0;
        if (e.status() != ExitCodes.OK) {
            note(e, "the measuring run");
            return null;
        }
        final Life life = AckLog.read(m.get(2)).life(wall);
        CampaignFiles.drop(m);
        return life;
    }

    /** Runs the kills in order, each at {@code fixed} or at the point drawn from {@code life}. */
    void run(final List<Long> kills, final KillPoint fixed, final Life life) throws IOException, InterruptedException {
        Long prev = null;
        String prevPoint = null;
        for (final long k : kills) {
            final String point = (fixed != null ? fixed : KillPoint.draw(k, life)).toString();
            if (prev != null) {
                q.plant().plant(files.index(), config);
            }
            final ChildJob job = job(prev, prevPoint, k, point, files.acks(k));
            job.write(files.job(k));
            final CampaignProcess.Ended e = CampaignProcess.run(files.job(k), files.log(k), limitSeconds());
            if (e.status() == ExitCodes.BAD_INPUT) {
                note(e, "kill " + k);
                return;
            }
            if (prev != null && !collect(prev, prevPoint, e, files.log(k))) {
                return;
            }
            if (e.status() != CampaignProcess.KILLED) {
                record(KillVerdict.broken(k, point, "its run did not die of its kill: the process ended with status "
                    + e.status() + (e.lastLine() == null ? "" : " (" + e.lastLine() + ")")), files.log(k), null);
                crashed |= e.status() != ExitCodes.OK;
                prev = null;
                if (stoppedAt != null) {
                    return;
                }
                continue;
            }
            prev = k;
            prevPoint = point;
        }
        if (prev != null) {
            q.plant().plant(files.index(), config);
            final List<Path> last = files.last();
            job(prev, prevPoint, null, null, null).write(last.get(0));
            final CampaignProcess.Ended e = CampaignProcess.run(last.get(0), last.get(1), limitSeconds());
            if (e.status() == ExitCodes.BAD_INPUT) {
                note(e, "the last recovery");
                return;
            }
            if (collect(prev, prevPoint, e, last.get(1))) {
                CampaignFiles.drop(last);
            }
        }
    }

    private ChildJob job(final Long prev, final String prevPoint, final Long kill, final String point,
                         final Path acks) {
        return new ChildJob(q.scenario(), q.sets(), files.device().toString(), q.io(), q.timeoutSeconds(),
            q.holder(), prev, prevPoint, prev == null ? null : files.acks(prev).toString(),
            prev == null ? null : files.verdict(prev).toString(), prev == null ? null
                : files.recovered(prev).toString(),
            kill, point, acks == null ? null : acks.toString(),
            q.keepGoing());
    }

    /** Reads the verdict on {@code kill} that the process writing {@code log} judged; false to stop the loop. */
    private boolean collect(final long kill, final String point, final CampaignProcess.Ended e,
                            final Path log) throws IOException {
        final Path file = files.verdict(kill);
        final KillVerdict v;
        if (Files.exists(file)) {
            v = ReportJson.mapper().readValue(Files.readString(file), KillVerdict.class);
        } else {
            crashed = true;
            v = KillVerdict.broken(kill, point, "its recovery did not finish: the process ended with status "
                + e.status() + (e.lastLine() == null ? "" : " (" + e.lastLine() + ")"));
        }
        record(v, files.log(kill), log);
        return stoppedAt == null;
    }

    private void record(final KillVerdict v, final Path runLog, final Path recoveryLog) throws IOException {
        verdicts.add(v);
        out.println(line(v));
        if (v.ok()) {
            files.drop(v.kill());
            return;
        }
        final List<String> kept = new ArrayList<>();
        for (final Path p : List.of(files.acks(v.kill()), files.recovered(v.kill()), files.verdict(v.kill()), runLog)) {
            if (Files.exists(p)) {
                kept.add(p.toString());
            }
        }
        if (recoveryLog != null) {
            kept.add(recoveryLog.toString());
        }
        if (!q.keepGoing()) {
            stoppedAt = v.kill();
            kept.add(files.device().toString());
            kept.add(files.index().toString());
        }
        failures.add(new CampaignSummary.Failure(v.kill(), v.point(), v.life(), v.failures(), reproduce(v), kept));
    }

    private static String line(final KillVerdict v) {
        if (v.life() == null) {
            return "kill " + v.kill() + " at " + v.point() + ": FAILED: " + String.join("; ", v.failures());
        }
        return String.format(Locale.ROOT, "kill %d at %s: died in %s at event %,d; %,d acknowledged, %,d recovered "
            + "(%,d read back, %,d unreadable), lost %d, wrong bytes %d, %s; recovery %.1f ms%s", v.kill(), v.point(),
            v.life(), v.killedAt(), v.acknowledged(), v.recovered(), v.readBack(), v.unreadable(), v.lost(),
            v.wrongBytes(), v.prefix() ? "a prefix" : "NOT a prefix", v.recoveryNanos() / 1e6, v.ok() ? ""
                : ": FAILED");
    }

    /** The command that runs this kill again, alone, at the same point. */
    private String reproduce(final KillVerdict v) {
        final StringBuilder b = new StringBuilder("./kvtier crash-campaign ").append(q.scenario()).append(" --device ")
            .append(files.device()).append(" --from ").append(v.kill()).append(" --kills 1 --kill-at ")
            .append(v.point()).append(" --io ").append(q.io());
        for (final String s : q.sets()) {
            b.append(" --set ").append(s);
        }
        if (q.plant() != PlantedBug.NONE) {
            b.append(" --plant ").append(q.plant().option());
        }
        return b.toString();
    }

    private void note(final CampaignProcess.Ended e, final String what) {
        if (e.status() == ExitCodes.BAD_INPUT) {
            refused = e.lastLine() != null ? e.lastLine() : "kvtier: " + what + " refused its files";
        } else {
            crashed = true;
            refused = (e.lastLine() != null ? e.lastLine() : "kvtier: " + what + " failed") + " (status "
                + e.status() + ")";
        }
    }

    private long limitSeconds() {
        // A run, a recovery and a JVM's start each within the timeout; beyond that the process is stuck.
        return 2 * q.timeoutSeconds() + 60;
    }

    List<KillVerdict> verdicts() {
        return verdicts;
    }

    List<CampaignSummary.Failure> failures() {
        return failures;
    }

    /** The failing kill the loop stopped at, or null. */
    Long stoppedAt() {
        return stoppedAt;
    }

    /** Why the campaign could not go on (a process refused its files, or crashed outside a kill), or null. */
    String refused() {
        return refused;
    }

    /** Whether a process crashed (a bug) or outlived its time. */
    boolean crashed() {
        return crashed;
    }
}
