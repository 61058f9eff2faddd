package dev.kvtier.harness.workload;

import java.util.BitSet;

/**
 * The engine's KV memory (docs/design/ENGINE-MODEL.md): its KV blocks, the requests it holds at once, and where each
 * request's blocks sit in the engine KV region. A request is admitted at its first schedule when the engine holds fewer
 * than {@code maxRunning} requests (when set) and enough KV blocks are free for its prompt and every token it will
 * generate, and holds them until its last token; there is no preemption (a running request never runs short). The
 * region is cut into lanes of {@code laneBlocks} slots, one per request held: a closed-loop client's request uses its
 * client's lane, a trace's request the lowest free lane from its admission to its end. Not thread-safe: it runs on
 * the loop's thread.
 */
final class EngineMemory {
    private final int laneBlocks;
    private final long slotBytes;
    private final int maxRunning;
    private final BitSet lanes = new BitSet();
    private long kvBlocksFree;
    private int held;

    EngineMemory(final WorkloadSpec spec, final long slotBytes) {
        this.laneBlocks = spec.blocksPerPrompt();
        this.slotBytes = slotBytes;
        this.maxRunning = spec.engine().maxRunning();
        this.kvBlocksFree = spec.engineKvBlocks();
    }

    /** Admits {@code r} if the engine may hold one more request and its blocks are free; false leaves all as it was. */
    boolean admit(final EngineRequest r) {
        if ((maxRunning > 0 && held >= maxRunning) || kvBlocksFree < r.kvBlocks) {
            return false;
        }
        kvBlocksFree -= r.kvBlocks;
        held++;
        if (r.client < 0) {
            assert r.lane < 0 : "request " + r.id + " holds lane " + r.lane + " before its admission";
            r.lane = lanes.nextClearBit(0);
            lanes.set(r.lane);
        }
        return true;
    }

    /** {@code r} ended: its blocks and its lane are free. */
    void release(final EngineRequest r) {
        assert held > 0 : "release of request " + r.id + " with none held";
        kvBlocksFree += r.kvBlocks;
        held--;
        if (r.client < 0) {
            assert lanes.get(r.lane) : "request " + r.id + " releases lane " + r.lane + " it does not hold";
            lanes.clear(r.lane);
        }
    }

    /** The number of block {@code block} of the request in {@code lane} in engine memory. */
    int blockId(final int lane, final int block) {
        assert lane >= 0 && block < laneBlocks : "block " + block + " of lane " + lane;
        return lane * laneBlocks + block;
    }

    /** The offset of block {@code block} of the request in {@code lane} in engine memory. */
    long blockOffset(final int lane, final int block) {
        return blockId(lane, block) * slotBytes;
    }
}
