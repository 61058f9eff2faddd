package dev.kvtier.journal.replay;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.AllocateRequested;
import dev.kvtier.core.event.CoreEvent.ClaimReleased;
import dev.kvtier.core.event.CoreEvent.Decision;
import dev.kvtier.core.event.CoreEvent.Delivered;
import dev.kvtier.core.event.CoreEvent.DrainRequested;
import dev.kvtier.core.event.CoreEvent.IndexIoCompleted;
import dev.kvtier.core.event.CoreEvent.IndexOpenRequested;
import dev.kvtier.core.event.CoreEvent.Input;
import dev.kvtier.core.event.CoreEvent.IoCompleted;
import dev.kvtier.core.event.CoreEvent.LoadRequested;
import dev.kvtier.core.event.CoreEvent.Lookup;
import dev.kvtier.core.event.CoreEvent.Note;
import dev.kvtier.core.event.CoreEvent.SaveQueued;
import dev.kvtier.core.event.CoreEvent.ShutdownRequested;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.journal.dump.JournalDump;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Feeds a journal's inputs to a fresh core and compares, one by one and in order, every event the core emits with
 * the recorded events that are not driver notes. What a recorded event is to replay is its type: a
 * {@link Input} is fed (one case per input record in {@code drive}), a {@link Decision} is compared, a {@link Note} is
 * passed over.
 *
 * <p><b>Steps.</b> At the top level the next recorded input is fed to the core through the same API the recorder's
 * driver used; the core emits that input first and then its decisions, each checked against the journal as it is
 * emitted. A driver may call the core again from inside a completion callback (a load's, a save's, a drain's), so the
 * inputs its call produced sit in the journal among the decisions of the outer input. Replay therefore feeds, from
 * inside each callback, the recorded inputs that come next, up to the first decision. This is exact when the input
 * was nested; when it was not, the outer call emitted nothing after the callback, so feeding it there or after the
 * outer call returns gives the same events. Device completions are never nested: a device never completes
 * synchronously.
 *
 * <p>A divergence or a journal that fails to read unwinds the core through an unchecked signal; the core is not used
 * again after that.
 */
public final class Replayer {
    /** Recorded events kept to show before a divergence. */
    public static final int CONTEXT_EVENTS = 8;
    /** No {@code --until}: replay to the end. */
    public static final long TO_END = Long.MAX_VALUE;
    /** The first journal format whose client calls and replies are delivered where a Delivered input says. */
    public static final int DELIVERED_SINCE = 3;
    /** The engine's KV memory: one region as large as a region can be, so any recorded block offset fits. */
    private static final long ENGINE_KV_BYTES = Long.MAX_VALUE & -4096L;

    private final JournalReader reader;
    private final ReplayMemory memory = new ReplayMemory();
    private final ReplayDevice device;
    private final ReplayDevice indexDevice;
    private final KvServer server;
    private final KvClient client;
    /** The parking transport (format 3 and newer), or null when calls and replies ran at once. */
    private final ReplayTransport transport;
    private final MemoryRegion engineKv;
    private final ArrayDeque<JournalEntry> recent = new ArrayDeque<>(CONTEXT_EVENTS + 1);
    private final SaveListener saveListener = new NestedInputs();
    private JournalEntry lookahead;
    private boolean ended;
    private long lastSequence = -1;
    private JournalEntry lastDriven;
    private long inputs;
    private long decisions;
    private long annotations;
    private int checksumCalls;
    private boolean opened;

    /**
     * A replay of {@code reader}'s events against a fresh core of {@code config}; the client's store ids start at
     * {@code storeIdBase}, as the recorder's did. A journal of format {@value #DELIVERED_SINCE} or newer delivers the
     * client's calls and replies where its {@link CoreEvent.Delivered} inputs say; an older one ran them at once.
     */
    public Replayer(final JournalReader reader, final CoreConfig config, final long storeIdBase) {
        this.reader = reader;
        this.device = new ReplayDevice(config.l2Bytes());
        this.indexDevice = new ReplayDevice(KvServer.indexLayout(config).deviceBytes());
        this.server = new KvServer(config, memory, device, indexDevice, this::compare);
        memory.setOracle(this::recordedChecksum);
        this.transport = reader.header().formatVersion() >= DELIVERED_SINCE ? new ReplayTransport() : null;
        this.client = new KvClient(config, memory, server, transport == null ? ServerTransport.DIRECT : transport,
            this::compare, storeIdBase);
        this.engineKv = memory.allocate("engine-kv", ENGINE_KV_BYTES);
    }

    /**
     * Replays up to the step that holds event {@code untilSequence} ({@link #TO_END} for all) and says how it ended.
     * The rest of the journal is not read here: the caller reads and checks it before reporting anything.
     *
     * @throws JournalException when the journal fails to read before the outcome is known
     */
    public ReplayOutcome run(final long untilSequence) throws JournalException {
        if (untilSequence < 0) {
            throw new IllegalArgumentException("untilSequence must be >= 0, got " + untilSequence);
        }
        try {
            return topLevel(untilSequence);
        } catch (final Divergence d) {
            return d.outcome;
        } catch (final RecordingEnded e) {
            return new ReplayOutcome.Identical(lastSequence + 1, inputs, decisions, annotations, true);
        } catch (final RestartReached r) {
            return new ReplayOutcome.Identical(r.sequence, inputs, decisions, annotations, false, r.sequence);
        } catch (final ReadFailure f) {
            throw f.cause;
        }
    }

    /** The fresh core, for the state dump after {@code --until}. */
    public KvServer server() {
        return server;
    }

    /** The replay device, for the state dump. */
    public ReplayDevice device() {
        return device;
    }

    /** The last recorded event replayed, or -1. */
    public long lastSequence() {
        return lastSequence;
    }

    private ReplayOutcome topLevel(final long untilSequence) {
        for (JournalEntry next = nextComparable(); next != null; next = nextComparable()) {
            if (next.sequence() > untilSequence) {
                return new ReplayOutcome.Stopped(untilSequence, lastSequence,
                    CoreState.describe(server, device, lastSequence));
            }
            if (!(next.event() instanceof Input input)) {
                throw diverge(next, "nothing: the replayed core made no further decision before the next input");
            }
            final ReplayOutcome crash = feed(next, input);
            if (crash != null) {
                return crash;
            }
            if (lastSequence < lastDriven.sequence()) {
                throw diverge(lastDriven, "nothing: the replayed core did not take this input");
            }
        }
        return new ReplayOutcome.Identical(lastSequence + 1, inputs, decisions, annotations, false);
    }

    /** Feeds one recorded input; returns a {@link ReplayOutcome.Crashed} when the core throws, else null. */
    private ReplayOutcome feed(final JournalEntry entry, final Input input) {
        try {
            drive(entry, input);
        } catch (final Divergence | ReadFailure | RecordingEnded | RestartReached signal) {
            throw signal;
        } catch (final RuntimeException | AssertionError e) {
            return new ReplayOutcome.Crashed(entry.sequence(), line(entry), oneLine(e));
        }
        return null;
    }

    /** Calls the core's API for one recorded input ({@code entry} holds {@code input}): one case per input record. */
    private void drive(final JournalEntry entry, final Input input) {
        if (input instanceof IndexOpenRequested && opened) {
            throw new RestartReached(entry.sequence());
        }
        if (input instanceof IoCompleted io && !device.isInFlight(io.ioId())) {
            throw diverge(entry, "nothing: I/O " + io.ioId() + " is not in flight in the replayed core");
        }
        if (input instanceof Delivered d && (transport == null || !transport.isParked(d.callId()))) {
            throw diverge(entry, "nothing: call " + d.callId() + " is not waiting for delivery in the replayed client");
        }
        if (input instanceof IndexIoCompleted io && !indexDevice.isInFlight(io.ioId())) {
            throw diverge(entry, "nothing: index I/O " + io.ioId() + " is not in flight in the replayed core");
        }
        lastDriven = entry;
        switch (input) {
            case Lookup l -> server.lookup(l.modelId(), l.keys());
            case AllocateRequested a -> server.allocate(a.requestId(), a.modelId(), a.keys(), a.slotsPerKey());
            case ClaimReleased c -> server.release(c.ref());
            case SaveQueued s -> client.save(s.requestId(), s.specs(), engineKv, saveListener);
            case Delivered d -> transport.deliver(d.callId());
            case LoadRequested l -> server.load(l.loadId(), l.ranges(), engineKv, result -> feedNested());
            case IoCompleted io -> {
                device.complete(io.ioId());
                server.onIoComplete(new IoCompletion(io.ioId(), io.result()));
            }
            case DrainRequested d -> server.drain(this::feedNested);
            case IndexOpenRequested o -> {
                opened = true;
                server.open(o.recover(), error -> feedNested());
            }
            case ShutdownRequested s -> server.shutdown(error -> feedNested());
            case IndexIoCompleted io -> {
                indexDevice.complete(io.ioId());
                server.onIoComplete(new IoCompletion(io.ioId(), io.result()));
            }
        }
        inputs++;
    }

    /**
     * From inside a completion callback: feeds the recorded inputs that come next, up to the first decision. An input
     * fed here may be emitted later in the same call (a load that arrives while the engine is stepping starts when
     * the engine gets to it), so each input is fed once ({@link #lastDriven}), and the top level checks that the core
     * took it by the time the outer input returned.
     */
    private void feedNested() {
        for (JournalEntry next = nextComparable(); next != null && next.event() instanceof Input input
            && !(input instanceof IoCompleted) && !(input instanceof IndexIoCompleted)
            && next.sequence() > lastDriven.sequence(); next = nextComparable()) {
            drive(next, input);
        }
    }

    /** The event sink of the fresh core: every emitted event must be the next recorded one. */
    private void compare(final CoreEvent replayed) {
        final JournalEntry recorded = nextComparable();
        if (recorded == null) {
            throw new RecordingEnded();
        }
        if (recorded.event() instanceof IndexOpenRequested && opened && recorded.sequence() != lastDriven.sequence()) {
            // The recorded core lost power inside this input: the rest of its step is not in the journal.
            throw new RestartReached(recorded.sequence());
        }
        if (!recorded.event().equals(replayed)) {
            throw diverge(recorded, line(replayed));
        }
        if (recorded.event() instanceof Decision) {
            decisions++;
        }
        consume();
    }

    /** The next recorded input or decision (driver notes are passed over), or null at the end. */
    private JournalEntry nextComparable() {
        while (true) {
            final JournalEntry e = peek();
            if (e == null || !(e.event() instanceof Note)) {
                return e;
            }
            annotations++;
            consume();
        }
    }

    private JournalEntry peek() {
        if (lookahead == null && !ended) {
            try {
                lookahead = reader.next();
            } catch (final JournalException e) {
                throw new ReadFailure(e);
            }
            ended = lookahead == null;
        }
        return lookahead;
    }

    /**
     * The replay memory's checksum answer: 0 (every stored and every read slot then agree) except for the slot the
     * recording says failed its check, which gets 1, so the replayed core fails the same load at the same slot.
     */
    private long recordedChecksum() {
        final JournalEntry next = nextComparable();
        if (next != null && next.event() instanceof CoreEvent.ChecksumMismatch m) {
            return checksumCalls++ == m.slotIndex() ? 1 : 0;
        }
        return 0;
    }

    private void consume() {
        checksumCalls = 0;
        recent.addLast(lookahead);
        if (recent.size() > CONTEXT_EVENTS) {
            recent.removeFirst();
        }
        lastSequence = lookahead.sequence();
        lookahead = null;
    }

    private Divergence diverge(final JournalEntry recorded, final String replayed) {
        final String body = line(recorded.event());
        final int at = firstDifference(body, replayed);
        final String shown = recorded.sequence() + " " + recorded.timeNs() + " " + DumpLines.around(body, at);
        return new Divergence(new ReplayOutcome.Diverged(recorded.sequence(), shown, DumpLines.around(replayed, at),
            before()));
    }

    private static int firstDifference(final String a, final String b) {
        final int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            if (a.charAt(i) != b.charAt(i)) {
                return i;
            }
        }
        return n;
    }

    private List<String> before() {
        final List<String> lines = new ArrayList<>(recent.size());
        for (final JournalEntry e : recent) {
            lines.add(DumpLines.cut(line(e)));
        }
        return lines;
    }

    private static String line(final JournalEntry entry) {
        final StringBuilder b = new StringBuilder(128);
        JournalDump.format(entry, b);
        return b.toString();
    }

    private static String line(final CoreEvent event) {
        final StringBuilder b = new StringBuilder(128);
        JournalDump.format(event, b);
        return b.toString();
    }

    private static String oneLine(final Throwable t) {
        return t.toString().replace('\n', ' ').replace('\r', ' ');
    }

    /** The save listener replay gives the client: its callbacks feed the nested inputs. */
    private final class NestedInputs implements SaveListener {
        @Override
        public void released(final long requestId) {
            feedNested();
        }

        @Override
        public void committed(final long requestId, final List<AllocationRef> accepted,
                              final List<AllocationRef> rejected) {
            feedNested();
        }
    }

    /** Unwinds the core at the first divergence. */
    private static final class Divergence extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient ReplayOutcome.Diverged outcome;

        Divergence(final ReplayOutcome.Diverged outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }

    /** The recorded run crashed and restarted here. */
    private static final class RestartReached extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long sequence;

        RestartReached(final long sequence) {
            super(null, null, false, false);
            this.sequence = sequence;
        }
    }

    /** The journal ended while the fresh core was still handling the last recorded input. */
    private static final class RecordingEnded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RecordingEnded() {
            super(null, null, false, false);
        }
    }

    /** Unwinds the core when the journal fails to read. */
    private static final class ReadFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient JournalException cause;

        ReadFailure(final JournalException cause) {
            super(null, null, false, false);
            this.cause = cause;
        }
    }
}
