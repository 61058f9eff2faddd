package dev.kvtier.lab.crash;

import dev.kvtier.core.value.PrefixKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A killed run's acknowledgement log ({@link AckWriter}), read back: every allocation the run made with the events at
 * which it was claimed, acknowledged and evicted, the markers of its life, and where it was killed. A kill never
 * leaves half a line: each line goes to the kernel whole, in one {@code write(2)}, before the core goes on.
 *
 * @param allocations      every allocation, by allocation id, in the order made
 * @param markers          the life markers ({@code opened}, {@code ready}, {@code phase}, {@code ckpt},
 *                         {@code ckpt-done}, {@code shutdown}, {@code shutdown-done}), in order
 * @param shutdownDurableAt the event at which a shutdown completed durably, or {@link #NEVER}
 * @param killedAt         the event of the kill line, or {@link #NEVER} when the run was not killed
 * @param killedLife       where in its life the run was killed, or null
 * @param notes            other lines (the measuring run's end, what broke a run)
 */
public record AckLog(Map<Long, Allocation> allocations, List<Marker> markers, long shutdownDurableAt, long killedAt,
                     String killedLife, List<String> notes) {
    /** An event that did not happen. */
    public static final long NEVER = Long.MAX_VALUE;

    public AckLog {
        allocations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(allocations));
        markers = List.copyOf(markers);
        notes = List.copyOf(notes);
    }

    /**
     * One allocation of the run.
     *
     * @param key          its key
     * @param allocationId its id
     * @param startSlot    its first slot
     * @param slotCount    its slots
     * @param tag          the content the workload stamps its slots with
     * @param allocatedAt  the event of its claim
     * @param committedAt  the event its commit was acknowledged at, or {@link #NEVER}
     * @param evictedAt    the event it left the ring at, or {@link #NEVER}
     */
    public record Allocation(PrefixKey key, long allocationId, int startSlot, int slotCount, long tag,
                             long allocatedAt, long committedAt, long evictedAt) {
        public boolean committed() {
            return committedAt != NEVER;
        }

        public boolean evicted() {
            return evictedAt != NEVER;
        }
    }

    /**
     * A life marker.
     *
     * @param what its kind ({@code phase}, {@code ckpt}, ...)
     * @param seq  its event
     * @param arg  its argument (a phase's name, a checkpoint's number, durable or not), or empty
     */
    public record Marker(String what, long seq, String arg) {}

    /** Reads the log at {@code file}; a line it does not know is an error naming it. */
    public static AckLog read(final Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.US_ASCII));
    }

    /** Parses the lines of a log. */
    public static AckLog parse(final List<String> lines) {
        final Map<Long, Allocation> allocations = new LinkedHashMap<>();
        final List<Marker> markers = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        long shutdownDurableAt = NEVER;
        long killedAt = NEVER;
        String killedLife = null;
        for (final String line : lines) {
            final String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "alloc" -> allocations.put(Long.parseLong(f[4]), new Allocation(key(f[2], f[3]),
                    Long.parseLong(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]), Long.parseLong(f[7]),
                    Long.parseLong(f[1]), NEVER, NEVER));
                case "commit" -> allocations.computeIfPresent(Long.parseLong(f[4]), (id, a) -> new Allocation(a.key(),
                    id, a.startSlot(), a.slotCount(), a.tag(), a.allocatedAt(), Long.parseLong(f[1]), a.evictedAt()));
                case "evict" -> allocations.computeIfPresent(Long.parseLong(f[2]), (id, a) -> new Allocation(a.key(),
                    id, a.startSlot(), a.slotCount(), a.tag(), a.allocatedAt(), a.committedAt(),
                    Math.min(a.evictedAt(), Long.parseLong(f[1]))));
                case "opened", "ready", "phase", "ckpt", "ckpt-done", "shutdown" -> markers.add(new Marker(f[0],
                    Long.parseLong(f[1]), f.length > 2 ? f[2] : ""));
                case "shutdown-done" -> {
                    markers.add(new Marker(f[0], Long.parseLong(f[1]), f[2]));
                    if (f[2].equals("durable")) {
                        shutdownDurableAt = Long.parseLong(f[1]);
                    }
                }
                case "kill" -> {
                    killedAt = Long.parseLong(f[1]);
                    killedLife = f[2];
                }
                default -> notes.add(line);
            }
        }
        return new AckLog(allocations, markers, shutdownDurableAt, killedAt, killedLife, notes);
    }

    private static PrefixKey key(final String hi, final String lo) {
        return new PrefixKey(Long.parseLong(hi), Long.parseLong(lo));
    }

    /** Commits acknowledged before the kill. */
    public long acknowledged() {
        return allocations.values().stream().filter(Allocation::committed).count();
    }

    /**
     * The life the log shows, for a run that finished ({@link Life}); {@code wallNanos} is its process's wall time.
     */
    public Life life(final long wallNanos) {
        long setup = -1;
        long shutdownAt = -1;
        long shutdownDone = -1;
        long last = 0;
        final List<Life.Phase> phases = new ArrayList<>();
        final List<Long> checkpoints = new ArrayList<>();
        String phase = null;
        long phaseAt = 0;
        long ckptAt = -1;
        for (final Marker m : markers) {
            last = Math.max(last, m.seq());
            switch (m.what()) {
                case "phase", "shutdown" -> {
                    if (phase != null) {
                        phases.add(new Life.Phase(phase, m.seq() - phaseAt));
                    } else if (m.what().equals("phase")) {
                        setup = m.seq();
                    }
                    phase = m.what().equals("phase") ? m.arg() : null;
                    phaseAt = m.seq();
                    shutdownAt = m.what().equals("shutdown") ? m.seq() : shutdownAt;
                }
                case "ckpt" -> ckptAt = m.seq();
                case "ckpt-done" -> checkpoints.add(m.seq() - ckptAt + 1);
                case "shutdown-done" -> shutdownDone = m.seq();
                default -> {
                    // opened, ready: within the set-up
                }
            }
        }
        if (setup < 0 || shutdownAt < 0 || shutdownDone < shutdownAt) {
            throw new IllegalStateException("the measuring run did not go through its phases and shutdown: "
                + markers);
        }
        return new Life(setup, phases, checkpoints, shutdownDone - shutdownAt + 1, last + 1, wallNanos);
    }
}
