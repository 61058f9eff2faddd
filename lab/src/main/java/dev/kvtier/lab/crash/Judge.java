package dev.kvtier.lab.crash;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.realio.run.RecoveryCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges one kill: what recovery returned ({@link RecoveryCheck.Result}) against what the killed run was told and
 * did ({@link AckLog}). Three claims (docs/design/FAULTS-AND-CRASH-SAFETY.md, invariant 15):
 *
 * <ol>
 *   <li><b>No wrong byte</b>, either mode: every recovered chunk either loads with exactly its key's bytes, or fails
 *       its load (a checksum mismatch, which makes it a miss).</li>
 *   <li><b>No lost commit</b>: in {@code durable} mode every acknowledged commit not evicted before the kill, and in
 *       either mode every commit before a shutdown that completed durably, is recovered at its allocation and loads
 *       its bytes.</li>
 *   <li><b>A prefix</b>: what recovery returned is the run's index as some prefix of its index log left it. The log
 *       holds a COMMIT record per logged allocation and an EVICT record when a logged one leaves the ring, in the
 *       order the core decided them, so for some cut P of the run's events: every recovered allocation had its COMMIT
 *       record before P and no eviction before P, and every allocation whose COMMIT record was surely before P
 *       and that was not evicted before P was recovered. In {@code l1} mode the record is appended at the acknowledged
 *       commit itself; in {@code durable} mode it is appended after the claim and before the acknowledgement (at a
 *       moment the run does not print), so a recovered allocation only needs its claim before P.</li>
 * </ol>
 */
public final class Judge {
    private Judge() {}

    /** The verdict on kill {@code kill}, killed at {@code point}, of a run in {@code mode}. */
    public static KillVerdict judge(final long kill, final String point, final CommitMode mode, final AckLog acks,
                                    final RecoveryCheck.Result rec) {
        final List<String> failures = new ArrayList<>();
        for (final String note : acks.notes()) {
            if (note.startsWith("violation ") || note.startsWith("shutdown-error ")) {
                failures.add("the run itself failed before its kill: " + note);
            }
        }
        if (acks.killedAt() == AckLog.NEVER) {
            failures.add("the run did not die of its own kill: its log has no kill line (killed from elsewhere?)");
        }
        final Map<Long, RecoveryCheck.Chunk> byAllocation = new HashMap<>();
        long readBack = 0;
        long unreadable = 0;
        long wrong = 0;
        for (final RecoveryCheck.Chunk c : rec.chunks()) {
            byAllocation.put(c.allocationId(), c);
            final AckLog.Allocation a = acks.allocations().get(c.allocationId());
            if (a == null || !a.key().equals(c.key()) || a.startSlot() != c.startSlot()
                || a.slotCount() != c.slotCount()) {
                failures.add("recovered allocation " + c.allocationId() + " (key " + c.key() + ", slots "
                    + c.startSlot() + "+" + c.slotCount() + ") that the run never made: " + (a == null ? "no such "
                        + "allocation" : "it was key " + a.key() + ", slots " + a.startSlot() + "+" + a.slotCount()));
            }
            switch (c.outcome()) {
                case LOADED -> readBack++;
                case UNREADABLE, NOT_FOUND -> unreadable++;
                case WRONG_BYTES -> {
                    wrong++;
                    failures.add("wrong bytes: recovered key " + c.key() + " (allocation " + c.allocationId()
                        + ") loaded with its checksum matching and other bytes (" + c.detail() + ")");
                }
            }
        }
        long must = 0;
        long lost = 0;
        long notRecovered = 0;
        for (final AckLog.Allocation a : acks.allocations().values()) {
            if (!a.committed() || a.evicted()) {
                continue;
            }
            final RecoveryCheck.Chunk c = byAllocation.get(a.allocationId());
            final boolean back = c != null && c.outcome() == RecoveryCheck.Outcome.LOADED;
            notRecovered += c == null ? 1 : 0;
            final boolean beforeShutdown = acks.shutdownDurableAt() != AckLog.NEVER
                && a.committedAt() < acks.shutdownDurableAt();
            if (mode == CommitMode.DURABLE || beforeShutdown) {
                must++;
                if (!back) {
                    lost++;
                    failures.add("lost: key " + a.key() + " (allocation " + a.allocationId() + "), acknowledged at "
                        + "event " + a.committedAt() + (mode == CommitMode.DURABLE ? " in durable mode" : " before a "
                            + "durable shutdown")
                        + ", " + (c == null ? "not recovered" : "recovered but " + c.outcome()
                            + " " + c.detail()));
                }
            }
        }
        final boolean prefix = isPrefix(mode, acks, byAllocation);
        if (!prefix) {
            failures.add("not a prefix: no cut of the run's index log gives the " + rec.chunks().size()
                + " chunks recovered");
        }
        return new KillVerdict(kill, point, acks.killedLife(), acks.killedAt(), acks.acknowledged(), must,
            rec.chunks().size(), readBack, unreadable, lost, wrong, prefix, notRecovered, rec.openNanos(),
            failures.size() > 20 ? cap(failures) : failures);
    }

    /**
     * Whether some cut P (records of the events before P) gives exactly the recovered allocations: P must lie in the
     * window every recovered one allows (its record before P, its eviction at or after P), and outside every window
     * in which a not recovered one would surely be there ({@code (committedAt, evictedAt]}).
     */
    static boolean isPrefix(final CommitMode mode, final AckLog acks, final Map<Long, RecoveryCheck.Chunk> recovered) {
        long lo = 0;
        long hi = acks.killedAt() == AckLog.NEVER ? AckLog.NEVER : acks.killedAt() + 1;
        final List<long[]> forbidden = new ArrayList<>();
        for (final AckLog.Allocation a : acks.allocations().values()) {
            if (recovered.containsKey(a.allocationId())) {
                final long recordAt = mode == CommitMode.DURABLE ? a.allocatedAt() : a.committedAt();
                if (recordAt == AckLog.NEVER) {
                    return false; // recovered, but never acknowledged in l1 mode: its record was never appended
                }
                lo = Math.max(lo, recordAt + 1);
                hi = Math.min(hi, a.evictedAt());
            } else if (a.committed() && a.committedAt() < a.evictedAt()) {
                forbidden.add(new long[] {a.committedAt() + 1, a.evictedAt()});
            }
        }
        for (final Long id : recovered.keySet()) {
            if (!acks.allocations().containsKey(id)) {
                return false;
            }
        }
        forbidden.sort(Comparator.comparingLong(w -> w[0]));
        long p = lo;
        for (final long[] w : forbidden) {
            if (p > hi) {
                return false;
            }
            if (w[0] > p) {
                return true;
            }
            if (w[1] >= p) {
                p = w[1] == AckLog.NEVER ? AckLog.NEVER : w[1] + 1;
            }
        }
        return p <= hi;
    }

    private static List<String> cap(final List<String> failures) {
        final List<String> out = new ArrayList<>(failures.subList(0, 20));
        out.add("... and " + (failures.size() - 20) + " more");
        return out;
    }
}
