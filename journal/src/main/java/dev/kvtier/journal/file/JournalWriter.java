package dev.kvtier.journal.file;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.codec.KeyDictionary;
import dev.kvtier.journal.file.JournalException.Problem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HexFormat;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Writes a journal ({@link ExcerptLayout}, format 4): the header first, then the emitted events with the time
 * {@code clock} reads at emit, in blocks (sequence numbers 0, 1, 2, ... implied by each block's first; each prefix key
 * whole once per journal, then by number: {@link KeyDictionary}), then on {@link #close} the last block, an end record
 * and the seal. A block is appended once it holds about {@link ExcerptLayout#BLOCK_BYTES_TARGET} bytes, so what a
 * crashed process leaves is a journal without a seal, as before.
 *
 * <p><b>A thread of its own.</b> {@link #emit} reads the clock, checks it and hands the event over ({@link EventPipe});
 * the writer's own thread encodes, hashes and appends the events in emit order, beside the run, so a journal costs
 * the run's thread about a hand-over per event. The bytes are the same as written inline: one thread writes them, in
 * order, from immutable events with the times read at emit. {@link #close} waits for every event handed over. A
 * process that dies without closing leaves at most {@link EventPipe#BATCHES} batches of events more unwritten than an
 * inline writer would, and no seal either way.
 *
 * <p><b>Same run, same bytes.</b> The queue's own clock is fixed ({@link ExcerptLayout#FIXED_TIME_MS}) and a run never
 * rolls, so two identical runs write byte-identical {@code .cq4} files. Chronicle's table store ({@code metadata.cq4t})
 * holds lock and listing fields; after a clean close they were identical too in our tests (see the journal tests),
 * but they are Chronicle's, not ours, so only the {@code .cq4} file and the seal are promised.
 *
 * <p><b>Failures.</b> {@link #emit} cannot throw a checked exception into the core, so a failed append is kept as a
 * value ({@link #failure}), later events are dropped, and {@link #close} reports it. {@link #close} still tries to
 * end and seal the journal at the last event written, so what was written stays readable (it cannot when the end
 * record itself does not fit). A full disk can be injected with a byte cap ({@code maxBytes}): an event that would
 * not leave room for the end record is not written, as if the disk were full. A clock that goes backwards is a
 * bug and throws at once.
 */
public final class JournalWriter implements EventSink, AutoCloseable {
    private final Path dir;
    private final Clock clock;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final ExcerptCodec excerpts = new ExcerptCodec();
    private final EventBuffer buffer = new EventBuffer(ExcerptLayout.EXCERPT_BYTES_MAX);
    private final EventBuffer entries = new EventBuffer(ExcerptLayout.BLOCK_BYTES_TARGET + EventLayout.MAX_EVENT_BYTES
        + 32);
    private final EventBuffer scratch = new EventBuffer(EventLayout.MAX_EVENT_BYTES);
    private final KeyDictionary keys = new KeyDictionary();
    private final EventDigest digest = new EventDigest(ExcerptLayout.digestAlgorithm(ExcerptLayout.FORMAT_VERSION));
    private final JournalLock lock;
    private final EventPipe pipe;
    private long nextSequence;
    private long blockFirstSequence;
    private long lastTimeNs = Long.MIN_VALUE;
    /** The time entries are relative to: the previous event's (0 before the first). */
    private long previousTimeNs;
    private final long maxBytes;
    private final int blockEventsMax;
    private long bytesWritten;
    private String failure;
    private boolean closed;

    /** Creates a journal in {@code dir} (absent or empty) and writes {@code header}. */
    public JournalWriter(final Path dir, final JournalHeader header, final Clock clock) throws JournalException {
        this(dir, header, clock, Long.MAX_VALUE, "a kvtier run");
    }

    /** As below, held by "a kvtier run". */
    public JournalWriter(final Path dir, final JournalHeader header, final Clock clock,
                         final long maxBytes) throws JournalException {
        this(dir, header, clock, maxBytes, "a kvtier run");
    }

    /**
     * As above, on a disk that holds at most {@code maxBytes} of excerpts (a full disk, injected): events that would
     * not leave room for the end record are not written. {@code holder} (one line: the process and its command) is
     * what a second writer of the same directory is told while this one holds it ({@link JournalLock}).
     */
    public JournalWriter(final Path dir, final JournalHeader header, final Clock clock, final long maxBytes,
                         final String holder) throws JournalException {
        this(dir, header, clock, maxBytes, holder, ExcerptLayout.BLOCK_EVENTS_MAX);
    }

    /** As above, with blocks of at most {@code blockEventsMax} events (tests make small blocks to reach several). */
    JournalWriter(final Path dir, final JournalHeader header, final Clock clock, final long maxBytes,
                  final String holder, final int blockEventsMax) throws JournalException {
        if (blockEventsMax < 1 || blockEventsMax > ExcerptLayout.BLOCK_EVENTS_MAX) {
            throw new IllegalArgumentException("blockEventsMax " + blockEventsMax + " outside [1, "
                + ExcerptLayout.BLOCK_EVENTS_MAX + "]");
        }
        this.blockEventsMax = blockEventsMax;
        this.dir = dir;
        this.clock = clock;
        this.maxBytes = maxBytes;
        this.lock = JournalLock.take(dir, holder);
        excerpts.header(header, buffer);
        try {
            queue = ChronicleSupport.open(dir, false);
        } catch (final RuntimeException e) {
            lock.release();
            throw new JournalException(Problem.WRITE_FAILED, dir, "cannot open queue: " + e);
        }
        appender = queue.createAppender();
        append();
        if (failure != null) {
            queue.close();
            lock.release();
            throw new JournalException(Problem.WRITE_FAILED, dir, failure);
        }
        // The writer's thread appends from here on, until close or discard takes the appender back.
        appender.singleThreadedCheckReset();
        pipe = new EventPipe("kvtier journal " + dir.getFileName(), this::write);
    }

    @Override
    public void emit(final CoreEvent event) {
        if (closed) {
            throw new IllegalStateException("journal " + dir + " is closed; event " + event);
        }
        final long timeNs = clock.nowNs();
        if (timeNs < lastTimeNs) {
            throw new IllegalStateException("clock went back from " + lastTimeNs + " to " + timeNs + " ns");
        }
        lastTimeNs = timeNs;
        pipe.put(timeNs, event);
    }

    /** Encodes, hashes and appends one event: on the writer's own thread ({@link EventPipe}), in emit order. */
    private void write(final long timeNs, final CoreEvent event) {
        if (failure != null) {
            return;
        }
        if (nextSequence >= ExcerptLayout.EVENTS_MAX) {
            failure = "more than " + ExcerptLayout.EVENTS_MAX + " events";
            return;
        }
        final int keysBefore = keys.size();
        final int entriesBefore = entries.length();
        excerpts.entry(previousTimeNs, timeNs, event, keys, scratch, entries);
        if (bytesWritten + entries.length() + ExcerptLayout.BLOCK_FRAME_BYTES_MAX + END_RESERVE_BYTES > maxBytes) {
            entries.truncate(entriesBefore);
            keys.truncate(keysBefore);
            failure = "journal disk full after " + nextSequence + " events (" + bytesWritten + " bytes; the cap is "
                + maxBytes + "): the journal holds events 0 to " + (nextSequence - 1) + " and is sealed there";
            return;
        }
        digest.add(timeNs, event);
        previousTimeNs = timeNs;
        nextSequence++;
        if (entries.length() >= ExcerptLayout.BLOCK_BYTES_TARGET
            || nextSequence - blockFirstSequence >= blockEventsMax) {
            appendBlock();
        }
    }

    /** Appends the events not yet written as one EVENTS excerpt (nothing when there are none). */
    private void appendBlock() {
        final int count = (int) (nextSequence - blockFirstSequence);
        if (count == 0) {
            return;
        }
        excerpts.block(blockFirstSequence, count, entries, buffer);
        entries.reset();
        blockFirstSequence = nextSequence;
        append();
    }

    /** Bytes of excerpts kept for the end record when a cap is set. */
    private static final int END_RESERVE_BYTES = 256;

    /** Events written; final once {@link #close} returned (before, the writer's thread may still be writing). */
    public long eventCount() {
        return nextSequence;
    }

    /** The first append failure, or {@code null}; final once {@link #close} returned. */
    public String failure() {
        return failure;
    }

    /** The {@link EventDigest} of every event written; available after {@link #close}. */
    public String eventDigest() {
        if (!closed) {
            throw new IllegalStateException("the event digest is known after close");
        }
        return digest.finish();
    }

    /** Writes the end record, closes the queue, writes the seal and releases the directory. */
    @Override
    public void close() throws JournalException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            final IllegalStateException failed = takeBack();
            if (failed != null) {
                // The writer's thread failed (a bug, such as an event that does not encode): no end record, as a crash.
                appender.close();
                queue.close();
                throw failed;
            }
            seal();
        } finally {
            lock.release();
        }
    }

    /**
     * Gives the journal up (the run never started): closes the queue without an end record or a seal and removes
     * every file this writer made, and the directory when it made it. The directory was absent or empty when the
     * writer took it, so nothing else is removed.
     */
    public void discard() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            takeBack(); // a failure of the writer's thread does not matter: the journal is given up
            appender.close();
            queue.close();
            lock.discard();
        } finally {
            lock.release();
        }
    }

    /**
     * Waits until the writer's thread has written every event handed over and has ended, and takes the appender back
     * to this thread; returns the thread's failure, or null.
     */
    private IllegalStateException takeBack() {
        try {
            pipe.finish();
            return null;
        } catch (final IllegalStateException e) {
            return e;
        } finally {
            appender.singleThreadedCheckReset();
        }
    }

    private void seal() throws JournalException {
        final String failed = failure;
        final boolean ended;
        try {
            // End at the last event written, even after a failure, so that what was written stays readable.
            appendBlock();
            excerpts.end(nextSequence, HexFormat.of().parseHex(digest.finish()), buffer);
            ended = append();
        } finally {
            appender.close();
            queue.close();
        }
        if (!ended && failed == null) {
            throw new JournalException(Problem.WRITE_FAILED, dir, failure);
        }
        try {
            if (ended) {
                new JournalSeal(nextSequence, JournalSeal.queueFiles(dir)).write(dir);
            }
        } catch (final IOException e) {
            throw new JournalException(Problem.WRITE_FAILED, dir, "cannot write seal: " + e);
        }
        if (failed != null) {
            throw new JournalException(Problem.WRITE_FAILED, dir, ended ? failed
                : failed + "; the end record did not fit either, so the journal is not sealed");
        }
    }

    /** Appends the buffer as one excerpt; false (and {@link #failure} set) when the append failed. */
    private boolean append() {
        try (DocumentContext context = appender.writingDocument()) {
            context.wire().bytes().write(buffer.array(), 0, buffer.length());
            bytesWritten += buffer.length();
            return true;
        } catch (final RuntimeException e) {
            failure = "append of excerpt " + nextSequence + " failed: " + e;
            return false;
        }
    }
}
