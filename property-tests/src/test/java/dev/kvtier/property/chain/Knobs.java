package dev.kvtier.property.chain;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * The knobs of one chain, drawn per chain (swarm testing): sizes in slots, the slot size in 4096-byte pages, and
 * which features are on. Everything a chain's core and its actions are built from. Shrinks towards small values,
 * LRU, coalescing off, no faults, {@code l1} commits, no crashes, no corruption. The core always has its crash-safe
 * index on its own device.
 *
 * @param slotPages         slot size in pages (1..16: 4 KiB to 64 KiB)
 * @param l1Slots           L1 budget in slots
 * @param l1ExtraPages      extra L1 bytes beyond whole slots, in pages (so L1 need not be a whole number of slots)
 * @param l2Slots           L2 ring slots
 * @param headroomRatio     1..40
 * @param coalesce          coalesce store spans at the server boundary
 * @param writeBatchSlots   grouped write batch bound, in slots
 * @param concurrentIos     L2 I/Os in flight at once
 * @param readBatchMax      reads in one load batch
 * @param readSlots         one load read is at most this many slots
 * @param stagingSlots      one staging batch, in slots
 * @param stagingBatches    staging pool, in batches
 * @param prefixLru         prefix-aware LRU instead of LRU
 * @param slotsPerKey       slots per key (1 is prefix mode)
 * @param faults            FailIo actions (EIO completions) are allowed
 * @param inOrderDevice     the device completes only its oldest I/O (a depth-1 device); otherwise any order
 * @param prompts           prompts in the key universe
 * @param promptBlocks      blocks per prompt
 * @param sharedBlocks      leading blocks every prompt shares
 * @param mayExceedRing     one request may claim more slots than the ring holds (so later claims of the batch
 *                          evict earlier ones); off in the swarm, see {@code CoreChainProperties}
 * @param durable           commit mode {@code durable} instead of {@code l1}
 * @param crashes           Crash actions (power loss and a restart that recovers the index) are allowed
 * @param corruption        Corrupt actions (one data page silently changed on the medium) are allowed
 */
record Knobs(int slotPages, int l1Slots, int l1ExtraPages, int l2Slots, int headroomRatio, boolean coalesce,
             int writeBatchSlots, int concurrentIos, int readBatchMax, int readSlots, int stagingSlots,
             int stagingBatches, boolean prefixLru, int slotsPerKey, boolean faults, boolean inOrderDevice,
             int prompts, int promptBlocks, int sharedBlocks, boolean mayExceedRing, boolean durable,
             boolean crashes, boolean corruption) {

    static final long PAGE = 4096;

    long slotBytes() {
        return slotPages * PAGE;
    }

    CoreConfig config() {
        final long slot = slotBytes();
        final long staging = stagingSlots * slot;
        return CoreConfig.builder(slot)
            .l2Bytes(l2Slots * slot)
            .l1Bytes(l1Slots * slot + l1ExtraPages * PAGE)
            .headroomRatio(headroomRatio)
            .groupedWriteBatchBytes(writeBatchSlots * slot)
            .coalesceStoreSpans(coalesce)
            .concurrentIos(concurrentIos)
            .readBatchMax(readBatchMax)
            .maxReadBytes(readSlots * slot)
            .stagingBatchBytes(staging)
            .stagingPoolBytes(stagingBatches * staging)
            .replacement(prefixLru ? ReplacementKind.PREFIX_LRU : ReplacementKind.LRU)
            .commitMode(durable ? CommitMode.DURABLE : CommitMode.L1)
            .build();
    }

    /** The swarm: every knob independent. */
    static Arbitrary<Knobs> swarm() {
        return Combinators.combine(List.of(
            Arbitraries.of(1, 1, 2, 4, 16), // slotPages
            Arbitraries.integers().between(1, 24), // l1Slots
            Arbitraries.of(0, 0, 0, 1), // l1ExtraPages
            Arbitraries.integers().between(2, 100), // l2Slots
            Arbitraries.integers().between(1, 40), // headroomRatio
            Arbitraries.integers().between(0, 1), // coalesce
            Arbitraries.integers().between(1, 8), // writeBatchSlots
            Arbitraries.integers().between(1, 8), // concurrentIos
            Arbitraries.integers().between(1, 8), // readBatchMax
            Arbitraries.integers().between(1, 8), // readSlots
            Arbitraries.integers().between(1, 8), // stagingSlots
            Arbitraries.integers().between(1, 3), // stagingBatches
            Arbitraries.integers().between(0, 1), // prefixLru
            Arbitraries.of(1, 1, 1, 2), // slotsPerKey
            Arbitraries.of(0, 0, 0, 1), // faults
            Arbitraries.of(0, 0, 0, 1), // inOrderDevice
            Arbitraries.integers().between(1, 5), // prompts
            Arbitraries.integers().between(1, 8), // promptBlocks
            Arbitraries.integers().between(0, 2), // sharedBlocks
            Arbitraries.integers().between(0, 1), // durable
            Arbitraries.integers().between(0, 1), // crashes
            Arbitraries.of(0, 0, 0, 1))) // corruption
            .as(Knobs::of);
    }

    private static Knobs of(final List<Integer> v) {
        return new Knobs(v.get(0), v.get(1), v.get(2), v.get(3), v.get(4), v.get(5) == 1, v.get(6), v.get(7),
            v.get(8), v.get(9), v.get(10), v.get(11), v.get(12) == 1, v.get(13), v.get(14) == 1, v.get(15) == 1,
            v.get(16), v.get(17), v.get(18), false, v.get(19) == 1, v.get(20) == 1, v.get(21) == 1);
    }

    /** The same knobs, with requests allowed to claim more slots than the ring holds. */
    Knobs exceedingRing() {
        return new Knobs(slotPages, l1Slots, l1ExtraPages, l2Slots, headroomRatio, coalesce, writeBatchSlots,
            concurrentIos, readBatchMax, readSlots, stagingSlots, stagingBatches, prefixLru, slotsPerKey, faults,
            inOrderDevice, prompts, promptBlocks, sharedBlocks, true, durable, crashes, corruption);
    }

    /** The same knobs, with crashes on (and the commit mode given). */
    Knobs crashing(final boolean durableMode) {
        return new Knobs(slotPages, l1Slots, l1ExtraPages, l2Slots, headroomRatio, coalesce, writeBatchSlots,
            concurrentIos, readBatchMax, readSlots, stagingSlots, stagingBatches, prefixLru, slotsPerKey, faults,
            inOrderDevice, prompts, promptBlocks, sharedBlocks, mayExceedRing, durableMode, true, corruption);
    }

    /** Keys one allocation may ask for. */
    int maxKeysPerRequest() {
        return mayExceedRing ? promptBlocks : Math.max(1, Math.min(promptBlocks, l2Slots / slotsPerKey));
    }

    @Override
    public String toString() {
        return "slot=" + slotPages * 4 + "KiB L1=" + l1Slots + " slots" + (l1ExtraPages > 0 ? "+4KiB" : "")
            + " L2=" + l2Slots + " slots headroomRatio=" + headroomRatio + " coalesce=" + (coalesce ? "on" : "off")
            + " writeBatch=" + writeBatchSlots + " ios=" + concurrentIos + " readBatchMax=" + readBatchMax
            + " read=" + readSlots + " staging=" + stagingSlots + "x" + stagingBatches + " policy="
            + (prefixLru ? "PREFIX_LRU" : "LRU") + " slotsPerKey=" + slotsPerKey + " faults=" + (faults ? "on" : "off")
            + " device=" + (inOrderDevice ? "in-order" : "any-order") + " prompts=" + prompts + "x" + promptBlocks
            + " shared=" + sharedBlocks + (mayExceedRing ? " requests may exceed the ring" : "") + " commit="
            + (durable ? "durable" : "l1") + " crashes=" + (crashes ? "on" : "off") + " corruption="
            + (corruption ? "on" : "off");
    }
}
