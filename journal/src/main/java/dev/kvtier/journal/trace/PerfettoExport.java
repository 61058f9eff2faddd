package dev.kvtier.journal.trace;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a journal as Chrome trace-event JSON ({@code {"traceEvents": [...]}}), which the Perfetto UI and
 * {@code chrome://tracing} open. Times are microseconds from the journal's first event.
 *
 * <pre>
 *   pid 1 "requests"  one track per request: "request" X from RequestArrived to RequestFinished, and instants for
 *                     its save steps (SaveQueued, BatchStaged, BatchSent, RequestReleased, RequestCommitted)
 *   pid 2 "saves"     one track per request: "save" X from SaveQueued to RequestCommitted
 *   pid 3 "loads"     one track per load: "load" X from LoadRequested to LoadCompleted or LoadFailed
 *   pid 4 "device"    one track per I/O lane: READ/WRITE/FLUSH X from IoSubmitted to IoCompleted; a lane is the
 *                     lowest one free at submit, so lanes show the device queue depth
 *   pid 5 "core"      tid 1 "L1": EntryEvicted, Trimmed instants; tid 2 "L2 ring": RingEvicted, RingWrapped,
 *                     Committed instants
 *   pid 6 "engine"    tid 1 "steps": one "step" X per StepCompleted (its phase, requests, tokens, and the time
 *                     spent in store calls, the forward pass and staging as args)
 * </pre>
 *
 * Saves and loads have their own tracks because they may outlive the request and slices on one track must nest. A
 * slice still open at the end is closed at the last event's time with {@code "unfinished": true}. Thread-name ("M")
 * events name every track. The switch lists every record, so a new one must be placed (or ignored) here. Memory
 * is bounded by the operations open at once ({@link #OPEN_MAX}).
 */
public final class PerfettoExport implements AutoCloseable {
    /** The most operations open at once (requests, saves, loads, I/Os); more is reported as a bug in the input. */
    public static final int OPEN_MAX = 1 << 20;

    private static final int PID_REQUESTS = 1;
    private static final int PID_SAVES = 2;
    private static final int PID_LOADS = 3;
    private static final int PID_DEVICE = 4;
    private static final int PID_CORE = 5;
    private static final int PID_ENGINE = 6;
    private static final int TID_L1 = 1;
    private static final int TID_RING = 2;
    private static final double NS_PER_US = 1_000.0;

    private final JsonGenerator json;
    private final Map<Long, Long> requestStarts = new HashMap<>();
    private final Map<Long, Long> saveStarts = new HashMap<>();
    private final Map<Long, Long> loadStarts = new HashMap<>();
    private final Map<Long, long[]> ioStarts = new HashMap<>();
    private final TreeSet<Integer> freeLanes = new TreeSet<>();
    private final TreeMap<Long, String> named = new TreeMap<>();
    private int lanesUsed;
    private long originNs = -1;
    private long lastNs;

    /** A trace written to {@code out} (not closed by {@link #close}). */
    public PerfettoExport(final OutputStream out) {
        this.json = JsonMapper.builder().build().createGenerator(out);
        json.writeStartObject();
        json.writeStringProperty("displayTimeUnit", "ns");
        json.writeArrayPropertyStart("traceEvents");
        for (final String[] process : new String[][] {{"1", "requests"}, {"2", "saves"}, {"3", "loads"},
            {"4", "device"}, {"5", "core"}, {"6", "engine"}}) {
            metadata("process_name", Integer.parseInt(process[0]), 0, process[1]);
        }
        trackName(PID_CORE, TID_L1, "L1");
        trackName(PID_CORE, TID_RING, "L2 ring");
    }

    /** Exports the journal in {@code dir} to {@code traceFile}; returns 0, or 2 after one line on {@code err}. */
    public static int export(final Path dir, final Path traceFile, final PrintStream err) {
        try (OutputStream out = Files.newOutputStream(traceFile)) {
            return export(dir, out, traceFile, err);
        } catch (final IOException e) {
            err.println("kvtier: " + traceFile + ": cannot write trace: " + e.getMessage());
            return 2;
        }
    }

    /**
     * Exports the journal in {@code dir} to {@code out} (not closed), which messages call {@code traceFile}; returns
     * 0, or 2 after one line on {@code err}. The whole journal is checked: a trace of a bad journal is incomplete, and
     * the caller must not keep it.
     */
    public static int export(final Path dir, final OutputStream out, final Path traceFile, final PrintStream err) {
        try (JournalReader reader = JournalReader.open(dir);
             PerfettoExport trace = new PerfettoExport(out)) {
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                trace.add(entry);
            }
            return 0;
        } catch (final JournalException e) {
            err.println("kvtier: " + e.getMessage());
            return 2;
        } catch (final JacksonException e) {
            err.println("kvtier: " + traceFile + ": cannot write trace: " + e.getMessage());
            return 2;
        }
    }

    /** Adds one journal entry (entries in journal order). */
    public void add(final JournalEntry entry) {
        final long t = entry.timeNs();
        if (originNs < 0) {
            originNs = t;
        }
        if (t < originNs) {
            throw new IllegalArgumentException("event at " + t + " ns before the first at " + originNs + " ns");
        }
        lastNs = Math.max(lastNs, t);
        switch (entry.event()) {
            case CoreEvent.RequestArrived x -> open(requestStarts, x.requestId(), t, PID_REQUESTS, "request ");
            case CoreEvent.RequestFinished x -> requestFinished(x, t);
            case CoreEvent.StepCompleted x -> stepCompleted(x, t);
            case CoreEvent.SaveQueued x -> {
                open(saveStarts, x.requestId(), t, PID_SAVES, "save ");
                requestStep(x.requestId(), t, "SaveQueued", "bytes", x.bytes());
            }
            case CoreEvent.BatchStaged x -> requestStep(x.requestId(), t, "BatchStaged", "slots", x.slots());
            case CoreEvent.BatchSent x -> requestStep(x.requestId(), t, "BatchSent", "storeId", x.storeId());
            case CoreEvent.RequestReleased x -> requestStep(x.requestId(), t, "RequestReleased", "requestId",
                x.requestId());
            case CoreEvent.RequestCommitted x -> {
                requestStep(x.requestId(), t, "RequestCommitted", "acceptedKeys", x.acceptedKeys());
                close(saveStarts, x.requestId(), t, PID_SAVES, "save", false);
            }
            case CoreEvent.LoadRequested x -> open(loadStarts, x.loadId(), t, PID_LOADS, "load ");
            case CoreEvent.LoadCompleted x -> close(loadStarts, x.loadId(), t, PID_LOADS, "load", false);
            case CoreEvent.LoadFailed x -> close(loadStarts, x.loadId(), t, PID_LOADS, "load " + x.reason(), false);
            case CoreEvent.IoSubmitted x -> ioSubmitted(x, t);
            case CoreEvent.IoCompleted x -> ioCompleted(x, t);
            case CoreEvent.EntryEvicted x -> instant(PID_CORE, TID_L1, t, "EntryEvicted " + x.reason(),
                "lengthBytes", x.lengthBytes());
            case CoreEvent.Trimmed x -> instant(PID_CORE, TID_L1, t, "Trimmed", "evicted", x.evicted());
            case CoreEvent.RingEvicted x -> instant(PID_CORE, TID_RING, t, "RingEvicted " + x.reason(),
                "slotCount", x.slotCount());
            case CoreEvent.RingWrapped x -> instant(PID_CORE, TID_RING, t, "RingWrapped", "slotCount", x.slotCount());
            case CoreEvent.Committed x -> instant(PID_CORE, TID_RING, t, "Committed", "allocationId",
                x.allocationId());
            case CoreEvent.ChecksumMismatch x -> instant(PID_CORE, TID_RING, t, "ChecksumMismatch", "fileOffset",
                x.fileOffset());
            case CoreEvent.IndexCheckpointed x -> instant(PID_CORE, TID_RING, t, "IndexCheckpointed", "chunks",
                x.chunks());
            case CoreEvent.IndexOpened x -> instant(PID_CORE, TID_RING, t, "IndexOpened", "recovered",
                x.recovered());
            case CoreEvent.IndexFailed x -> instant(PID_CORE, TID_RING, t, "IndexFailed", "result", x.result());
            case CoreEvent.CommitRefused x -> instant(PID_CORE, TID_RING, t, "CommitRefused", "allocationId",
                x.allocationId());
            // @formatter:off (the formatter cannot wrap a list of case patterns)
            case CoreEvent.Lookup _, CoreEvent.AllocateRequested _, CoreEvent.Allocated _,
                CoreEvent.AllocationSkipped _, CoreEvent.ClaimReleased _, CoreEvent.CommitRequested _,
                CoreEvent.LateCommit _, CoreEvent.StoreSent _, CoreEvent.StoreReceived _, CoreEvent.SpanRejected _,
                CoreEvent.SpansCoalesced _, CoreEvent.SliceReserved _, CoreEvent.EntryInserted _,
                CoreEvent.SliceFreed _, CoreEvent.MemoryWait _, CoreEvent.StoreCompleted _, CoreEvent.BatchSealed _,
                CoreEvent.WriteFinished _, CoreEvent.LoadHit _, CoreEvent.LoadGap _, CoreEvent.LoadWaitsForWrite _,
                CoreEvent.Promoted _, CoreEvent.PromotionDiscarded _, CoreEvent.DrainRequested _,
                CoreEvent.Drained _, CoreEvent.PhaseStarted _, CoreEvent.IndexOpenRequested _,
                CoreEvent.IndexIoSubmitted _, CoreEvent.IndexIoCompleted _, CoreEvent.CommitPending _,
                CoreEvent.ChunkRecovered _, CoreEvent.ShutdownRequested _, CoreEvent.ShutdownCompleted _,
                CoreEvent.Delivered _, CoreEvent.LoadWaited _ -> { }
            // @formatter:on
        }
    }

    /** Closes the slices still open at the last event's time, ends the JSON and flushes it. */
    @Override
    public void close() {
        for (final Map.Entry<Long, Long> open : new TreeMap<>(requestStarts).entrySet()) {
            complete(PID_REQUESTS, open.getKey(), "request", open.getValue(), lastNs, true);
        }
        for (final Map.Entry<Long, Long> open : new TreeMap<>(saveStarts).entrySet()) {
            complete(PID_SAVES, open.getKey(), "save", open.getValue(), lastNs, true);
        }
        for (final Map.Entry<Long, Long> open : new TreeMap<>(loadStarts).entrySet()) {
            complete(PID_LOADS, open.getKey(), "load", open.getValue(), lastNs, true);
        }
        for (final Map.Entry<Long, long[]> io : new TreeMap<>(ioStarts).entrySet()) {
            complete(PID_DEVICE, io.getValue()[1], "io " + io.getKey(), io.getValue()[0], lastNs, true);
        }
        json.writeEndArray();
        json.writeEndObject();
        json.flush();
        json.close();
    }

    private void requestFinished(final CoreEvent.RequestFinished x, final long t) {
        final Long start = requestStarts.remove(x.requestId());
        final long from = start == null ? t : start;
        writeX(PID_REQUESTS, x.requestId(), "request " + x.phase(), from, t);
        json.writeObjectPropertyStart("args");
        json.writeNumberProperty("latencyNs", x.latencyNs());
        json.writeBooleanProperty("ok", x.ok());
        json.writeEndObject();
        json.writeEndObject();
    }

    private void stepCompleted(final CoreEvent.StepCompleted x, final long t) {
        trackOnce(PID_ENGINE, 1, "steps");
        writeX(PID_ENGINE, 1, "step " + x.phase(), t - x.durationNs(), t);
        json.writeObjectPropertyStart("args");
        json.writeNumberProperty("step", x.step());
        json.writeNumberProperty("requests", x.requests());
        json.writeNumberProperty("tokens", x.tokens());
        json.writeNumberProperty("scheduleNs", x.scheduleNs());
        json.writeNumberProperty("forwardNs", x.forwardNs());
        json.writeNumberProperty("finishNs", x.finishNs());
        json.writeEndObject();
        json.writeEndObject();
    }

    private void requestStep(final long requestId, final long t, final String name, final String arg,
                             final long value) {
        trackOnce(PID_REQUESTS, requestId, "request " + requestId);
        instant(PID_REQUESTS, requestId, t, name, arg, value);
    }

    private void ioSubmitted(final CoreEvent.IoSubmitted x, final long t) {
        final Integer free = freeLanes.pollFirst();
        final int lane = free != null ? free : lanesUsed++;
        trackOnce(PID_DEVICE, lane, "lane " + lane);
        checkOpen(ioStarts.size());
        ioStarts.put(x.ioId(), new long[] {t, lane, x.fileOffset(), x.lengthBytes()});
    }

    private void ioCompleted(final CoreEvent.IoCompleted x, final long t) {
        final long[] start = ioStarts.remove(x.ioId());
        if (start == null) {
            instant(PID_DEVICE, 0, t, x.op() + " completion without submit", "ioId", x.ioId());
            return;
        }
        freeLanes.add((int) start[1]);
        writeX(PID_DEVICE, start[1], x.op().name(), start[0], t);
        json.writeObjectPropertyStart("args");
        json.writeNumberProperty("ioId", x.ioId());
        json.writeNumberProperty("fileOffset", start[2]);
        json.writeNumberProperty("lengthBytes", start[3]);
        json.writeNumberProperty("result", x.result());
        json.writeEndObject();
        json.writeEndObject();
    }

    private void open(final Map<Long, Long> starts, final long id, final long t, final int pid, final String track) {
        checkOpen(starts.size());
        trackOnce(pid, id, track + id);
        starts.putIfAbsent(id, t);
    }

    private void close(final Map<Long, Long> starts, final long id, final long t, final int pid, final String name,
                       final boolean unfinished) {
        final Long start = starts.remove(id);
        complete(pid, id, name, start == null ? t : start, t, unfinished);
    }

    private void complete(final int pid, final long tid, final String name, final long fromNs, final long toNs,
                          final boolean unfinished) {
        writeX(pid, tid, name, fromNs, toNs);
        json.writeObjectPropertyStart("args");
        json.writeBooleanProperty("unfinished", unfinished);
        json.writeEndObject();
        json.writeEndObject();
    }

    /** Starts an X event object and leaves it open for its args. */
    private void writeX(final int pid, final long tid, final String name, final long fromNs, final long toNs) {
        json.writeStartObject();
        json.writeStringProperty("name", name);
        json.writeStringProperty("ph", "X");
        json.writeNumberProperty("ts", micros(fromNs));
        json.writeNumberProperty("dur", Math.max(0, toNs - fromNs) / NS_PER_US);
        json.writeNumberProperty("pid", pid);
        json.writeNumberProperty("tid", tid);
    }

    private void instant(final int pid, final long tid, final long t, final String name, final String arg,
                         final long value) {
        json.writeStartObject();
        json.writeStringProperty("name", name);
        json.writeStringProperty("ph", "i");
        json.writeStringProperty("s", "t");
        json.writeNumberProperty("ts", micros(t));
        json.writeNumberProperty("pid", pid);
        json.writeNumberProperty("tid", tid);
        json.writeObjectPropertyStart("args");
        json.writeNumberProperty(arg, value);
        json.writeEndObject();
        json.writeEndObject();
    }

    private void trackOnce(final int pid, final long tid, final String name) {
        final long key = ((long) pid << 56) ^ tid;
        if (named.size() < OPEN_MAX && named.putIfAbsent(key, name) == null) {
            trackName(pid, tid, name);
        }
    }

    private void trackName(final int pid, final long tid, final String name) {
        metadata("thread_name", pid, tid, name);
    }

    private void metadata(final String kind, final int pid, final long tid, final String name) {
        json.writeStartObject();
        json.writeStringProperty("name", kind);
        json.writeStringProperty("ph", "M");
        json.writeNumberProperty("ts", 0L);
        json.writeNumberProperty("pid", pid);
        json.writeNumberProperty("tid", tid);
        json.writeObjectPropertyStart("args");
        json.writeStringProperty("name", name);
        json.writeEndObject();
        json.writeEndObject();
    }

    private double micros(final long timeNs) {
        return (timeNs - originNs) / NS_PER_US;
    }

    private static void checkOpen(final int open) {
        if (open >= OPEN_MAX) {
            throw new IllegalStateException(open + " operations open at once; the trace keeps at most " + OPEN_MAX);
        }
    }
}
