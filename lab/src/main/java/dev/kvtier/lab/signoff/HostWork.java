package dev.kvtier.lab.signoff;

import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.run.LoopTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The real runs' byte work (copies, checksums, fills and checks of slot content, timed as they ran:
 * {@link ByteWork}) against the bandwidths the host cost profile charges for it in the simulation. A real bandwidth
 * more than {@link #BELOW} under the profile's means the simulated run charges that work less time than the real run
 * paid: the profile overstates the host, and the sign-off's figures will be short by about the difference.
 */
public final class HostWork {
    /** A real bandwidth more than this fraction under the profile's gets a note. */
    public static final double BELOW = 0.15;

    private HostWork() {}

    /**
     * One line per kind of work: the profile's bandwidth, the real runs' (median, min .. max, over the runs that did
     * that work), the time it took in the runs (median), and a note when the profile overstates it.
     */
    public static List<String> lines(final HostCostProfile host, final List<ByteWork> runs) {
        final List<String> out = new ArrayList<>();
        line(out, "copies", copyRate(host, runs), runs, ByteWork::copy);
        line(out, "checksums", host.checksumBytesPerSec(), runs, ByteWork::checksum);
        line(out, "checksums right after a copy", host.checksumCopiedBytesPerSec() > 0
            ? host.checksumCopiedBytesPerSec() : host.checksumBytesPerSec(), runs, ByteWork::checksumCopied);
        line(out, "fills of computed slots", host.stampBytesPerSec(), runs, ByteWork::stamp);
        line(out, "checks of loaded slots", host.verifyBytesPerSec(), runs, ByteWork::verify);
        return out;
    }

    /** {@link #lines} of the runs' byte work, then {@link #loopLines} of their loops: the report's whole section. */
    public static List<String> lines(final HostCostProfile host, final List<ByteWork> runs,
                                     final List<LoopTime> loops) {
        final List<String> out = new ArrayList<>(lines(host, runs));
        out.addAll(loopLines(host, loops));
        return out;
    }

    /**
     * The loop's other work (its time on a CPU besides the byte work): the real runs' (median, with its share of the
     * byte work and its cost an event), against what the profile charges for it (its per-event cost at the runs'
     * events, its share of the runs' byte work); none when no run measured its time on a CPU.
     */
    public static List<String> loopLines(final HostCostProfile host, final List<LoopTime> runs) {
        final List<LoopTime> known = runs.stream().filter(LoopTime::known).toList();
        if (known.isEmpty()) {
            return List.of();
        }
        final double other = Fidelity.median(known.stream().map(l -> (double) l.otherNs()).toList());
        final double share = Fidelity.median(known.stream().map(l -> l.otherNs() / (double) Math.max(1,
            l.byteWorkNs())).toList());
        final double perEvent = Fidelity.median(known.stream().map(LoopTime::otherPerEventNs).toList());
        final double charged = Fidelity.median(known.stream().map(l -> (double) l.events() * host.eventNs()
            + l.byteWorkNs() * (host.otherWorkPpm() / 1e6)).toList());
        final double idle = Fidelity.median(known.stream().map(l -> l.idleNs() / (double) Math.max(1, l.wallNs()))
            .toList());
        return List.of(String.format(Locale.ROOT, "the loop's other work (on a CPU, besides the byte work): real runs"
            + " %.2f s a run (%.1f %% of their byte work, %.1f us an event; %d run(s)); the profile charges about %.2f"
            + " s a run for it (%d ns an event, %.2f %% of the byte work); the loop was off a CPU %.0f %% of a run",
            other / 1e9, 100 * share, perEvent / 1e3, known.size(), charged / 1e9, host.eventNs(),
            host.otherWorkPpm() / 1e4, 100 * idle));
    }

    /**
     * The copy bandwidth the profile charges the runs' copies, their cost per copy included: the memcpy rate when the
     * profile has no such cost (as the bundled ones), less when the runs make many small copies.
     */
    private static long copyRate(final HostCostProfile host, final List<ByteWork> runs) {
        double bytes = 0;
        double ns = 0;
        for (final ByteWork w : runs) {
            bytes += w.copy().bytes();
            ns += w.copy().bytes() * 1e9 / host.memcpyBytesPerSec() + (double) w.copy().operations() * host.copyOpNs();
        }
        return host.copyOpNs() == 0 || ns == 0 ? host.memcpyBytesPerSec() : Math.round(bytes * 1e9 / ns);
    }

    private static void line(final List<String> out, final String what, final long profileBytesPerSec,
                             final List<ByteWork> runs, final Function<ByteWork, ByteWork.Tally> kind) {
        final List<ByteWork.Tally> tallies = runs.stream().map(kind).filter(t -> t.operations() > 0).toList();
        if (tallies.isEmpty()) {
            return;
        }
        final double real = Fidelity.median(tallies.stream().map(t -> (double) t.bytesPerSec()).toList());
        final long min = tallies.stream().mapToLong(ByteWork.Tally::bytesPerSec).min().orElseThrow();
        final long max = tallies.stream().mapToLong(ByteWork.Tally::bytesPerSec).max().orElseThrow();
        final double ns = Fidelity.median(tallies.stream().map(t -> (double) t.ns()).toList());
        final String profile = profileBytesPerSec == 0 ? "not charged"
            : String.format(Locale.ROOT, "%.2f GB/s", profileBytesPerSec / 1e9);
        String note = "";
        if (profileBytesPerSec == 0) {
            note = String.format(Locale.ROOT, ": the simulation charges none of the %.2f s it took", ns / 1e9);
        } else if (real < (1 - BELOW) * profileBytesPerSec) {
            note = String.format(Locale.ROOT, ": **the profile overstates it**, the simulation charges %.2f s of"
                + " the %.2f s it took (%.0f %% less)", ns * real / profileBytesPerSec / 1e9, ns / 1e9,
                100 * (1 - real / profileBytesPerSec));
        }
        out.add(String.format(Locale.ROOT, "%s: profile %s, real runs %.2f GB/s (%.2f .. %.2f, %d run(s)), %.2f s a"
            + " run%s", what, profile, real / 1e9, min / 1e9, max / 1e9, tallies.size(), ns / 1e9, note));
    }

}
