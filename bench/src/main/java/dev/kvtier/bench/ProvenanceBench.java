package dev.kvtier.bench;

import dev.kvtier.sim.memory.RunMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The simulator's provenance memory ({@link RunMap}) at a run's sizes: a pool of 4,096 slots of 2.25 MiB written
 * slot by slot, copied to a file map and hashed per slot ({@code slotCycle}, per slot); the file map of a crash, torn
 * into 512-byte sectors over 64 MiB, then reverted wholesale ({@code tornCrash}, per sector piece).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ProvenanceBench {
    static final long SLOT_BYTES = 2_359_296L;
    static final int SLOTS = 4096;
    static final int SECTOR_BYTES = 512;
    static final int TORN_PIECES = 64 * 1024 * 1024 / SECTOR_BYTES / 2;
    private RunMap pool;
    private RunMap file;
    private long tag;
    private int slot;

    @Setup(Level.Trial)
    public void fill() {
        pool = new RunMap();
        file = new RunMap();
        for (int s = 0; s < SLOTS; s++) {
            slotCycle();
        }
    }

    @Benchmark
    public long slotCycle() {
        final long at = (long) slot * SLOT_BYTES;
        final long fileAt = (long) ((slot * 7919) % SLOTS) * SLOT_BYTES;
        slot = (slot + 1) % SLOTS;
        tag++;
        // A slot arrives in four pieces (spans), goes to the file whole, and is checksummed in both.
        for (int piece = 0; piece < 4; piece++) {
            pool.put(at + piece * (SLOT_BYTES / 4), SLOT_BYTES / 4, tag, piece * (SLOT_BYTES / 4));
        }
        file.copyFrom(pool, at, fileAt, SLOT_BYTES);
        return pool.contentHash(at, SLOT_BYTES) ^ file.contentHash(fileAt, SLOT_BYTES);
    }

    @Benchmark
    @OperationsPerInvocation(TORN_PIECES)
    public int tornCrash() {
        final RunMap content = new RunMap();
        content.put(0, 64L << 20, ++tag, 0);
        final RunMap durable = new RunMap();
        durable.copyFrom(file, 0, 0, (long) SLOTS * SLOT_BYTES);
        for (int i = 0; i < TORN_PIECES; i++) {
            final long from = (long) i * 2 * SECTOR_BYTES;
            durable.copyFrom(content, from, (1L << 30) + from, SECTOR_BYTES);
        }
        final RunMap visible = new RunMap();
        visible.copyFrom(durable, 0, 0, (long) SLOTS * SLOT_BYTES);
        return visible.runCount();
    }
}
