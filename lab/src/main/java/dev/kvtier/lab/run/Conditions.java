package dev.kvtier.lab.run;

import dev.kvtier.realio.host.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conditions a calibration, a sign-off or a matrix ran on: the CPUs (how many are online, which this process may
 * run on, their model), the disk's write cache as the kernel reports it ({@code queue/write_cache} of the device that
 * holds the file: {@code write back} or {@code write through}), and the machine's other load while it ran, from
 * {@code /proc/stat}: the average number of CPUs busy with other processes' work, and the share of CPU time the
 * hypervisor stole. A profile records the conditions it was measured on (a comment line, {@link #profileLine}); a
 * run that uses it on other conditions says so ({@link #differences}); a result measured on a busy machine says so
 * in its verdict ({@link #busy}).
 *
 * @param cpusOnline    CPUs online
 * @param affinity      the CPUs this process may run on ({@code Cpus_allowed_list}), e.g. {@code 0-1}
 * @param cpuModel      the first CPU's model name
 * @param writeCache    the disk's write cache, or {@code unknown}
 * @param otherCpus     average CPUs busy with other processes' work while it ran (-1: not measured)
 * @param stealShare    share of all CPU time stolen by the hypervisor while it ran (-1: not measured)
 * @param seconds       how long the load was measured
 */
public record Conditions(int cpusOnline, String affinity, String cpuModel, String writeCache, double otherCpus,
                         double stealShare, double seconds) {
    /** Other processes' work above this many CPUs on average, or steal above {@link #BUSY_STEAL}: a busy machine. */
    public static final double BUSY_OTHER_CPUS = 0.25;
    /** Steal above this share: a busy host. */
    public static final double BUSY_STEAL = 0.05;
    private static final Pattern LINE = Pattern.compile("# conditions: cpus (\\d+) online, affinity (\\S+), model "
        + "\"([^\"]*)\", write cache \"([^\"]*)\".*");

    /** Whether the machine's other load or the hypervisor took enough to change a real figure. */
    public boolean busy() {
        return otherCpus > BUSY_OTHER_CPUS || stealShare > BUSY_STEAL;
    }

    /** One line, e.g. {@code 2 CPUs online, affinity 0-1, "Intel Xeon", write cache "write back"; other load ...}. */
    public String describe() {
        final String load = otherCpus < 0 ? "other load not measured" : String.format(Locale.ROOT, "other load %.2f "
            + "CPUs on average, steal %.1f %% over %.0f s%s", otherCpus, 100 * stealShare, seconds,
            busy()
                ? " -- a busy machine" : " -- quiet");
        return String.format(Locale.ROOT, "%d CPUs online, affinity %s, \"%s\", disk write cache \"%s\"; %s",
            cpusOnline, affinity, cpuModel, writeCache, load);
    }

    /** The comment line a profile keeps, which {@link #fromProfile} reads back. */
    public String profileLine() {
        return String.format(Locale.ROOT, "# conditions: cpus %d online, affinity %s, model \"%s\", write cache "
            + "\"%s\"; %s", cpusOnline, affinity, cpuModel.replace('"', '\''), writeCache,
            otherCpus < 0 ? "load not measured" : String.format(Locale.ROOT, "other load %.2f CPUs, steal %.1f %%",
                otherCpus, 100 * stealShare));
    }

    /** The conditions a profile's comment line records, if it has one (load not kept). */
    public static Optional<Conditions> fromProfile(final Path profile) {
        try {
            for (final String line : Files.readAllLines(profile)) {
                final Matcher m = LINE.matcher(line);
                if (m.matches()) {
                    return Optional.of(new Conditions(Integer.parseInt(m.group(1)), m.group(2), m.group(3),
                        m.group(4), -1, -1, 0));
                }
            }
        } catch (final IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * How {@code now} differs from these conditions (a profile's) in what changes a figure: the CPUs online, the
     * affinity's count, the model, the write cache. Empty when alike.
     */
    public List<String> differences(final Conditions now) {
        final List<String> out = new ArrayList<>();
        if (cpusOnline != now.cpusOnline) {
            out.add(cpusOnline + " CPUs online then, " + now.cpusOnline + " now");
        }
        if (ProcStat.count(affinity) != ProcStat.count(now.affinity)) {
            out.add("affinity " + affinity + " then (" + ProcStat.count(affinity) + " CPUs), " + now.affinity
                + " now (" + ProcStat.count(now.affinity) + ")");
        }
        if (!cpuModel.equals(now.cpuModel)) {
            out.add("CPU \"" + cpuModel + "\" then, \"" + now.cpuModel + "\" now");
        }
        if (!writeCache.equals(now.writeCache)) {
            out.add("disk write cache \"" + writeCache + "\" then, \"" + now.writeCache + "\" now");
        }
        return out;
    }

    /** Starts measuring the machine's load for a job on {@code file} (a disk file, or null). */
    public static Sampler start(final Path file) {
        return new Sampler(file);
    }

    /** The machine's counters at a job's start; {@link #end} gives the conditions over the job. */
    public static final class Sampler {
        private final Path file;
        private final long[] startStat;
        private final long startOwnTicks;
        private final long startNs;

        private Sampler(final Path file) {
            this.file = file;
            this.startStat = ProcStat.cpuTicks();
            this.startOwnTicks = ProcStat.ownTicks();
            this.startNs = System.nanoTime();
        }

        /** The conditions from the start to now. */
        public Conditions end() {
            final long[] endStat = ProcStat.cpuTicks();
            final long ownTicks = ProcStat.ownTicks() - startOwnTicks;
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            double other = -1;
            double steal = -1;
            if (startStat.length == 4 && endStat.length == 4 && startOwnTicks >= 0) {
                final long total = endStat[0] - startStat[0];
                final long busy = endStat[1] - startStat[1];
                final long stolen = endStat[2] - startStat[2];
                final double wallTicks = seconds * ProcStat.TICKS_PER_SECOND;
                other = wallTicks <= 0 ? 0 : Math.max(0, (busy - ownTicks) / wallTicks);
                steal = total <= 0 ? 0 : stolen / (double) total;
            }
            return new Conditions(ProcStat.cpusOnline(), ProcStat.affinity(), ProcStat.cpuModel(),
                ProcStat.writeCache(file), other, steal, seconds);
        }
    }
}
