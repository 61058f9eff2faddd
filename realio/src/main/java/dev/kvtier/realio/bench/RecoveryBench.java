package dev.kvtier.realio.bench;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.index.IndexChunk;
import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.loop.CallOutcome;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.run.RealRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * How long {@link KvServer#open} with {@code recover} takes on a real index file. Builds the index a ring would have
 * left: a checkpoint of {@code chunks} committed one-slot chunks (slots 0 to chunks-1), then {@code records} log
 * records as the ring goes on from there (an EVICT of the chunk in the way, then a COMMIT, slot after slot, wrapping),
 * written with the core's own codec ({@link IndexCodec}), exactly as the core lays them out. Then opens a core on it
 * with the index device on O_DIRECT (io_uring unless asked otherwise), so every byte is read from the disk, not the
 * page cache, and a data device that refuses I/O (recovery reads only the index).
 *
 * <p>Each repetition first wipes the header of the checkpoint area that open() itself writes, so every repetition
 * recovers the same checkpoint and replays the same records.
 */
public final class RecoveryBench {
    /** One COMMIT record of a one-slot chunk, the largest record the bench writes. */
    private static final long COMMIT_RECORD_BYTES = (long) IndexCodec.RECORD_HEADER_BYTES + IndexCodec.chunkBytes(1);

    /**
     * What to build.
     *
     * @param slots     ring slots
     * @param slotBytes bytes of a slot (only the L2 size per GiB depends on it)
     * @param chunks    committed one-slot chunks in the checkpoint, at most {@code slots}
     * @param records   log records after the checkpoint
     */
    public record Spec(int slots, long slotBytes, int chunks, long records) {
        public Spec {
            if (slots < 1 || chunks < 0 || chunks > slots || records < 0) {
                throw new IllegalArgumentException("need 1 <= slots, 0 <= chunks <= slots, records >= 0: slots "
                    + slots + ", chunks " + chunks + ", records " + records);
            }
        }

        public IndexLayout layout() {
            return IndexLayout.forSlots(slots);
        }

        public long l2Bytes() {
            return slots * slotBytes;
        }
    }

    /**
     * One timed open.
     *
     * @param recoverNanos wall time from open() to the IndexOpened decision (reading and replaying)
     * @param openNanos    wall time from open() to its completion (also writing and flushing the first checkpoint)
     * @param chunks       chunks recovered
     * @param records      records replayed
     * @param bytesRead    bytes read from the index device
     */
    public record Timing(long recoverNanos, long openNanos, int chunks, long records, long bytesRead) {}

    /** The built index: what recovery must find. */
    public record Built(int liveChunks, long records, long logBytes) {}

    /** The core's {@link CoreEvent.IndexOpened} decision and the wall time it was made at. */
    private static final class Recovered implements EventSink {
        private CoreEvent.IndexOpened event;
        private long atNs;

        @Override
        public void emit(final CoreEvent e) {
            if (e instanceof CoreEvent.IndexOpened o) {
                atNs = System.nanoTime();
                event = o;
            }
        }
    }

    private RecoveryBench() {}

    /** The smallest ring whose log area holds {@code records} records within one lap (half the log area). */
    public static int slotsFor(final long records) {
        // A lap ends at half the log area; the log area is 4 x (the largest record) = 4 x (61 + 9 x slots) B.
        final long needed = (records * COMMIT_RECORD_BYTES * 2 / 4 - IndexCodec.RECORD_HEADER_BYTES
            - IndexCodec.CHUNK_FIXED_BYTES) / IndexCodec.SLOT_ENTRY_BYTES + 1;
        return Math.toIntExact(Math.max(1, needed));
    }

    /** Writes the index file for {@code spec} (created or emptied first) and makes it durable. */
    public static Built write(final Path path, final Spec spec) throws IOException {
        return write(path, 0, spec);
    }

    /**
     * Writes the index for {@code spec} into {@code path} from {@code baseOffset} on (kvtier's header of a claimed
     * file lies before it and is kept; everything after it is dropped first) and makes it durable.
     */
    public static Built write(final Path path, final long baseOffset, final Spec spec) throws IOException {
        final IndexLayout layout = spec.layout();
        final long[] owner = new long[spec.slots()];
        final List<IndexChunk> base = new ArrayList<>(spec.chunks());
        long allocation = 1;
        for (int s = 0; s < spec.chunks(); s++) {
            base.add(chunk(allocation, s));
            owner[s] = allocation++;
        }
        final byte[] checkpoint = IndexCodec.checkpoint(1, 1, 1, spec.slotBytes(), spec.slots(), base);
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        int head = spec.chunks() % spec.slots();
        int live = spec.chunks();
        for (long seq = 1; seq <= spec.records(); seq++) {
            if (owner[head] != 0) {
                log.writeBytes(IndexCodec.evictRecord(1, seq, owner[head]));
                owner[head] = 0;
                live--;
                continue;
            }
            log.writeBytes(IndexCodec.commitRecord(1, seq, chunk(allocation, head)));
            owner[head] = allocation++;
            live++;
            head = (head + 1) % spec.slots();
        }
        if (log.size() > layout.logBytes() / 2 + COMMIT_RECORD_BYTES) {
            throw new IllegalArgumentException(spec.records() + " records (" + log.size() + " B) do not fit in one lap"
                + " of the log area of a " + spec.slots() + "-slot ring (" + layout.logBytes() / 2 + " B); use at "
                + "least " + slotsFor(spec.records()) + " slots");
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.truncate(baseOffset);
            writeAt(ch, ByteBuffer.wrap(checkpoint), baseOffset + layout.checkpointOffset(0));
            writeAt(ch, ByteBuffer.wrap(log.toByteArray()), baseOffset + layout.logOffset());
            writeAt(ch, ByteBuffer.allocate(1), baseOffset + layout.deviceBytes() - 1);
            ch.force(true);
        }
        return new Built(live, spec.records(), log.size());
    }

    /**
     * Wipes the header of checkpoint area 1 (where open() writes its first checkpoint), so the next open recovers
     * the built checkpoint and records again.
     */
    public static void reset(final Path path, final Spec spec) throws IOException {
        reset(path, 0, spec);
    }

    /** As above, for an index written from {@code baseOffset} on. */
    public static void reset(final Path path, final long baseOffset, final Spec spec) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            writeAt(ch, ByteBuffer.allocate(4096), baseOffset + spec.layout().checkpointOffset(1));
            ch.force(true);
        }
    }

    /** Opens a core on the index file with recover, on the wall clock. */
    public static Timing open(final Path path, final Spec spec, final IoChoice choice) {
        return open(path, 0, spec, choice);
    }

    /** As above, for an index written from {@code baseOffset} on. */
    public static Timing open(final Path path, final long baseOffset, final Spec spec, final IoChoice choice) {
        final CoreConfig config = CoreConfig.builder(spec.slotBytes()).l2Bytes(spec.l2Bytes())
            .l1Bytes(spec.slotBytes()).build();
        final long bufferBytes = RealRun.indexBufferBytes(config);
        final NativeMemory memory = new NativeMemory(config.l1PoolBytes() + bufferBytes);
        final OpenResult opened = Devices.open(LibcKernel.create(), new DeviceFile(path, baseOffset,
            spec.layout().deviceBytes()), 1, choice, memory, System.err);
        final Recovered recovered = new Recovered();
        try (memory; PolledDevice index = opened.orThrow()) {
            final KvServer server = new KvServer(config, memory, refusingDevice(config.l2Bytes()), index, recovered);
            final RealLoop loop = RealLoop.over(index, server::onIoComplete);
            final CallOutcome open = new CallOutcome();
            final long t0 = System.nanoTime();
            server.open(true, open);
            if (loop.runFor(open::done, 3_600_000_000_000L) != RealLoop.Outcome.STOPPED) {
                throw new IllegalStateException("open did not complete within an hour");
            }
            final long t1 = System.nanoTime();
            if (open.error() != null) {
                throw new IllegalStateException("the index did not open: " + open.error());
            }
            final CoreEvent.IndexOpened event = recovered.event;
            return new Timing(recovered.atNs - t0, t1 - t0, event.recovered(), event.records(), event.bytesRead());
        }
    }

    private static IndexChunk chunk(final long allocation, final int slot) {
        final long mixed = allocation * 0x9E3779B97F4A7C15L;
        return new IndexChunk(new PrefixKey(mixed ^ 0x5DEECE66DL, allocation), 1, allocation, slot, 1,
            new long[] {Long.rotateLeft(mixed, 17)}, new boolean[] {true});
    }

    private static void writeAt(final FileChannel ch, final ByteBuffer b, final long offset) throws IOException {
        long at = offset;
        while (b.hasRemaining()) {
            at += ch.write(b, at);
        }
    }

    /** A data device for a core that must not touch L2. */
    private static Device refusingDevice(final long capacityBytes) {
        return new Device() {
            @Override
            public long capacityBytes() {
                return capacityBytes;
            }

            @Override
            public void submit(final IoRequest request) {
                throw new IllegalStateException("recovery touched the data device: " + request);
            }
        };
    }
}
