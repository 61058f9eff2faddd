package dev.kvtier.core.index;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The writer of the crash-safe L2 index: an append-only, checksummed record log (COMMIT, EVICT) with periodic
 * checkpoints, written through the index device. A single-threaded state machine with at most one I/O in flight.
 *
 * <p>Records are appended in memory to the current <i>lap</i> and written in order, the tail block rewritten as it
 * grows (its earlier bytes never change, so a torn rewrite keeps them). {@link #whenDurable} waits until a record is
 * written and the device flushed. When the lap passes half the log area, a checkpoint of every logged chunk is
 * written to the checkpoint area not holding the newest checkpoint and flushed; only then does the next lap start
 * again at the beginning of the log area (records appended meanwhile wait in memory), so a crash at any point leaves a
 * checkpoint and an intact prefix of the records after it.
 *
 * <p>A failed index I/O (for example a full device) breaks the log: waiters are told false and nothing more is
 * written until a checkpoint, tried again on the next append or wait, succeeds.
 */
public final class IndexLog {
    private enum State {
        CLOSED,
        IDLE,
        WRITING,
        FLUSHING,
        CHECKPOINTING
    }

    private record Waiter(long seq, Consumer<Boolean> done) {}

    private final IndexLayout layout;
    private final long slotBytes;
    private final int slotCount;
    private final Memory memory;
    private final IndexIo io;
    private final EventSink sink;
    private final Supplier<? extends List<? extends PersistedChunk>> snapshot;
    private final List<Waiter> waiters = new ArrayList<>();
    private State state = State.CLOSED;
    private long epoch;
    private long checkpointSeq;
    private int newestArea;
    private long nextSeq;
    private byte[] lap = new byte[4096];
    /** What one write puts in the I/O buffer, reused (the buffer takes a copy: {@link Memory#write}). */
    private byte[] scratch = new byte[0];
    /** The checkpoint being written, reused from checkpoint to checkpoint (one at a time: state CHECKPOINTING). */
    private byte[] checkpointBuffer = new byte[0];
    private int lapBytes;
    private int lapWritten;
    private long writtenSeq;
    private long durableSeq;
    private boolean broken;
    private long recordsAppended;
    private long checkpoints;
    private long bytesWritten;
    private long flushes;

    /**
     * @param snapshot every logged chunk, in allocation order (the state a checkpoint persists)
     */
    public IndexLog(final IndexLayout layout, final long slotBytes, final int slotCount, final Memory memory,
                    final IndexIo io, final EventSink sink,
                    final Supplier<? extends List<? extends PersistedChunk>> snapshot) {
        this.layout = layout;
        this.slotBytes = slotBytes;
        this.slotCount = slotCount;
        this.memory = memory;
        this.io = io;
        this.sink = sink;
        this.snapshot = snapshot;
    }

    /**
     * Starts the log after {@link IndexOpener}: writes a checkpoint of the opened state (the recovered chunks, or
     * none) to the checkpoint area not holding {@code newestAreaOnDisk}, then calls {@code done} with whether it is
     * durable.
     */
    public void open(final long openEpoch, final long lastCheckpointSeq, final int newestAreaOnDisk,
                     final long firstSeq,
                     final Consumer<Boolean> done) {
        this.epoch = openEpoch;
        this.checkpointSeq = lastCheckpointSeq;
        this.newestArea = newestAreaOnDisk;
        this.nextSeq = firstSeq;
        this.writtenSeq = firstSeq - 1;
        this.durableSeq = firstSeq - 1;
        state = State.IDLE;
        waiters.add(new Waiter(firstSeq - 1, done));
        checkpoint();
    }

    public void appendCommit(final PersistedChunk chunk) {
        final int at = reserve(IndexCodec.commitRecordBytes(chunk));
        appended(IndexCodec.putCommitRecord(epoch, nextSeq, chunk, lap, at));
    }

    public void appendEvict(final long allocationId) {
        final int at = reserve(IndexCodec.EVICT_RECORD_BYTES);
        appended(IndexCodec.putEvictRecord(epoch, nextSeq, allocationId, lap, at));
    }

    /** Sequence number of the last record appended (0 before any). */
    public long lastSeq() {
        return nextSeq - 1;
    }

    /** Calls {@code done(true)} once record {@code seq} is durable, {@code done(false)} if the log breaks first. */
    public void whenDurable(final long seq, final Consumer<Boolean> done) {
        if (seq <= durableSeq) {
            done.accept(true);
            return;
        }
        waiters.add(new Waiter(seq, done));
        pump();
    }

    public boolean isOpen() {
        return state != State.CLOSED;
    }

    /** True while no index I/O is in flight and every appended record is written. */
    public boolean quiet() {
        return state == State.IDLE && lapWritten == lapBytes;
    }

    public boolean broken() {
        return broken;
    }

    public long epoch() {
        return epoch;
    }

    public long recordsAppended() {
        return recordsAppended;
    }

    public long checkpoints() {
        return checkpoints;
    }

    public long bytesWritten() {
        return bytesWritten;
    }

    public long flushes() {
        return flushes;
    }

    public long durableSeq() {
        return durableSeq;
    }

    /** Room for a record of {@code length} bytes at the lap's end (records are encoded in place); returns where. */
    private int reserve(final int length) {
        if (state == State.CLOSED) {
            throw new IllegalStateException("index log is not open");
        }
        if (lapBytes + length > lap.length) {
            lap = Arrays.copyOf(lap, Math.max(lap.length * 2, lapBytes + length));
        }
        return lapBytes;
    }

    /** A record of {@code length} bytes was encoded at the lap's end. */
    private void appended(final int length) {
        lapBytes += length;
        nextSeq++;
        recordsAppended++;
        pump();
    }

    private void pump() {
        if (state != State.IDLE) {
            return;
        }
        if (broken) {
            if (!waiters.isEmpty() || lapWritten < lapBytes) {
                checkpoint();
            }
            return;
        }
        if (lapBytes >= layout.logBytes() / 2) {
            checkpoint();
            return;
        }
        if (lapWritten < lapBytes) {
            writeLap();
            return;
        }
        for (final Waiter w : waiters) {
            if (w.seq() > durableSeq && w.seq() <= writtenSeq) {
                flush();
                return;
            }
        }
    }

    private void writeLap() {
        assert state == State.IDLE : "lap write while " + state;
        assert lapWritten < lapBytes : "lap write with nothing to write";
        final long from = Alignment.down(lapWritten);
        final long to = Math.min(Alignment.up(lapBytes), from + io.buffer().sizeBytes());
        final int end = (int) Math.min(to, lapBytes);
        final long upToSeq = end == lapBytes ? nextSeq - 1 : -1;
        final int length = (int) (to - from);
        final byte[] block = zeroedScratch(length);
        System.arraycopy(lap, (int) from, block, 0, end - (int) from);
        memory.write(io.buffer(), 0, block, 0, length);
        state = State.WRITING;
        io.submit(IoOp.WRITE, layout.logOffset() + from, length, result -> {
            assert state == State.WRITING : "lap write completed while " + state;
            state = State.IDLE;
            if (result != length) {
                fail(result);
                return;
            }
            bytesWritten += length;
            lapWritten = Math.max(lapWritten, end);
            if (upToSeq >= 0) {
                writtenSeq = Math.max(writtenSeq, upToSeq);
            }
            pump();
        });
    }

    private void flush() {
        assert state == State.IDLE : "flush while " + state;
        assert writtenSeq > durableSeq : "flush with every written record durable";
        final long covered = writtenSeq;
        state = State.FLUSHING;
        flushThen(() -> durableSeq = Math.max(durableSeq, covered));
    }

    /**
     * Flushes the index device; on success runs {@code durable}, tells the waiters now durable and pumps on; on
     * failure breaks the log. The state is IDLE again either way.
     */
    private void flushThen(final Runnable durable) {
        io.submit(IoOp.FLUSH, 0, 0, result -> {
            assert state == State.FLUSHING || state == State.CHECKPOINTING : "flush completed while " + state;
            state = State.IDLE;
            if (result < 0) {
                fail(result);
                return;
            }
            flushes++;
            durable.run();
            release(true);
            pump();
        });
    }

    /** Persists every logged chunk as of now; the next lap starts at the log area's start once it is durable. */
    private void checkpoint() {
        assert state == State.IDLE : "checkpoint while " + state;
        final long nextRecord = nextSeq;
        final List<? extends PersistedChunk> chunks = snapshot.get();
        final int chunkCount = chunks.size(); // the event needs only this: the list is not kept past the encoding
        final int which = 1 - newestArea;
        final int length = IndexCodec.checkpointBytes(chunks);
        if (length > layout.checkpointBytes()) {
            throw new IllegalStateException("checkpoint of " + length + " B exceeds its area of "
                + layout.checkpointBytes() + " B");
        }
        if (checkpointBuffer.length < length) { // grows by doubling up to its area: checkpoints grow as chunks do
            checkpointBuffer = new byte[(int) Math.min(layout.checkpointBytes(), Math.max(length,
                2L * checkpointBuffer.length))];
        }
        final byte[] bytes = checkpointBuffer;
        IndexCodec.putCheckpoint(epoch, checkpointSeq + 1, nextRecord, slotBytes, slotCount, chunks, bytes);
        // The lap so far is subsumed by the checkpoint; records appended from now on form the next lap, in the same
        // array (nothing is in flight: the log is idle; a lap write copies only the lap's bytes, never past them).
        lapBytes = 0;
        lapWritten = 0;
        state = State.CHECKPOINTING;
        writePieces(bytes, length, layout.checkpointOffset(which), 0, ok -> {
            if (!ok) {
                state = State.IDLE;
                return;
            }
            flushThen(() -> {
                checkpoints++;
                checkpointSeq++;
                newestArea = which;
                broken = false;
                writtenSeq = Math.max(writtenSeq, nextRecord - 1);
                durableSeq = Math.max(durableSeq, nextRecord - 1);
                sink.emit(new CoreEvent.IndexCheckpointed(epoch, nextRecord, chunkCount, length));
            });
        });
    }

    /** The scratch array, its first {@code length} bytes zero (a new array per write was 8 % of a run's bytes). */
    private byte[] zeroedScratch(final int length) {
        if (scratch.length < length) {
            scratch = new byte[length];
        } else {
            Arrays.fill(scratch, 0, length, (byte) 0);
        }
        return scratch;
    }

    /** Writes {@code bytes[0, total)} at {@code offset} from {@code from} on, one I/O buffer at a time. */
    private void writePieces(final byte[] bytes, final int total, final long offset, final int from,
                             final Consumer<Boolean> done) {
        if (from >= total) {
            done.accept(true);
            return;
        }
        final int length = (int) Math.min(io.buffer().sizeBytes(), Alignment.up(total - from));
        final byte[] piece = zeroedScratch(length);
        System.arraycopy(bytes, from, piece, 0, Math.min(length, total - from));
        memory.write(io.buffer(), 0, piece, 0, length);
        io.submit(IoOp.WRITE, offset + from, length, result -> {
            if (result != length) {
                fail(result);
                done.accept(false);
                return;
            }
            bytesWritten += length;
            writePieces(bytes, total, offset, from + length, done);
        });
    }

    private void fail(final long result) {
        broken = true;
        sink.emit(new CoreEvent.IndexFailed(result));
        release(false);
    }

    /** Tells waiters: on success those now durable; on failure every one. */
    private void release(final boolean ok) {
        final List<Waiter> ready = new ArrayList<>();
        for (final Waiter w : waiters) {
            if (!ok || w.seq() <= durableSeq) {
                ready.add(w);
            }
        }
        waiters.removeAll(ready);
        for (final Waiter w : ready) {
            w.done().accept(ok);
        }
    }
}
