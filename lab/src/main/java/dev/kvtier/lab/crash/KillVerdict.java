package dev.kvtier.lab.crash;

import java.util.List;
import java.util.Objects;

/**
 * What one kill showed, judged against its run's acknowledgement log ({@link Judge}).
 *
 * @param kill               the kill's number (its run's seed)
 * @param point              the kill point it was given ({@link KillPoint})
 * @param life               where in its life the run really died ({@code setup}, a phase, {@code checkpoint},
 *                           {@code shutdown}, {@code end}), or null when it did not die of its kill
 * @param killedAt           the core event it died at
 * @param acknowledged       commits acknowledged before the kill
 * @param mustSurvive        of those, the ones the claim says must survive: every one not evicted before the kill in
 *                           durable mode; in either mode, every one before a shutdown that completed durably
 * @param recovered          chunks recovery rebuilt
 * @param readBack           of those, chunks whose every slot loaded and held its key's bytes
 * @param unreadable         of those, chunks whose load failed (a checksum mismatch: a miss, never a wrong byte)
 * @param lost               chunks that had to survive and did not come back loadable with their bytes
 * @param wrongBytes         chunks that loaded (their checksums matched) with bytes other than their key's
 * @param prefix             whether what recovery returned is the run's index after some prefix of its log
 * @param notRecovered       acknowledged commits, not evicted before the kill, that recovery did not return (allowed
 *                           in {@code l1} mode before a durable shutdown)
 * @param recoveryNanos      the wall time of the core's open with recover, in a fresh process
 * @param failures           what broke, one line each (empty when the kill held)
 */
public record KillVerdict(long kill, String point, String life, long killedAt, long acknowledged, long mustSurvive,
                          long recovered, long readBack, long unreadable, long lost, long wrongBytes, boolean prefix,
                          long notRecovered, long recoveryNanos, List<String> failures) {
    public KillVerdict {
        Objects.requireNonNull(point, "point");
        failures = List.copyOf(failures);
        if (readBack + unreadable > recovered) {
            throw new IllegalArgumentException("kill " + kill + ": " + readBack + " read back and " + unreadable
                + " unreadable of " + recovered + " recovered");
        }
        if (failures.isEmpty() && (lost > 0 || wrongBytes > 0 || !prefix)) {
            throw new IllegalArgumentException("kill " + kill + " lost " + lost + ", served " + wrongBytes
                + " wrong, prefix " + prefix + ", and names no failure");
        }
    }

    /** Whether every check held. */
    public boolean ok() {
        return failures.isEmpty();
    }

    /** A kill whose run or recovery went wrong before anything could be judged. */
    public static KillVerdict broken(final long kill, final String point, final String why) {
        return new KillVerdict(kill, point, null, -1, 0, 0, 0, 0, 0, 0, 0, true, 0, -1, List.of(why));
    }
}
