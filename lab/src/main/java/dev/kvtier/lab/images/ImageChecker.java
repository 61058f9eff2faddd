package dev.kvtier.lab.images;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.lab.crash.AckLog;
import dev.kvtier.lab.crash.Judge;
import dev.kvtier.lab.crash.KillVerdict;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.PageStore;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.DevicePair;
import dev.kvtier.realio.run.RecoveryCheck;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks crash images of one recorded run: builds each image of an {@link ImagePlan} in memory (the durable state at
 * its cut, {@link DurableState}, with its in-flight writes on top), runs the core's recovery on it with the same code a
 * real restart's check runs ({@link RecoveryCheck#onDevices}: the core's open with recover, then every recovered chunk
 * loaded through the core, checksums checked, and compared with its key's content), and judges what came back against
 * the run's acknowledgements up to the cut as a crash campaign judges a kill ({@link Judge}): no wrong byte, no lost
 * commit that had to survive (every durable-mode commit acknowledged before the cut; in either mode, every commit
 * before a durable shutdown), and a prefix of the index log. The run's core ran with {@code -ea}, and so does every
 * recovery here: an assertion of the core that fails on an image is a crash of the checker, not a pass.
 *
 * <p>What it skips: the timing of a real disk (each image is one state, not a race), and images the plan did not draw.
 */
final class ImageChecker {
    private final CoreConfig config;
    private final Timeline timeline;
    private final PageStore pages;
    private final AckLog acks;
    private final long timeoutNs;
    private final PlantedFault plant;
    private final DurableState durable;
    private final Map<PrefixKey, Long> tags = new HashMap<>();

    ImageChecker(final CoreConfig config, final Timeline timeline, final PageStore pages, final AckLog acks,
                 final long indexBytes, final long timeoutNs, final PlantedFault plant) {
        this.config = config;
        this.timeline = timeline;
        this.pages = pages;
        this.acks = acks;
        this.timeoutNs = timeoutNs;
        this.plant = plant;
        this.durable = new DurableState(timeline, config.l2Bytes(), indexBytes);
        for (final AckLog.Allocation a : acks.allocations().values()) {
            tags.put(a.key(), a.tag());
        }
    }

    /** Builds {@code image} (at or after the cut of the last image checked), recovers it and judges it. */
    KillVerdict check(final ImagePlan.Image image) {
        durable.advanceTo(image.cut());
        final Map<DeviceRole, Map<Long, Integer>> overlays = new EnumMap<>(DeviceRole.class);
        overlays.put(DeviceRole.DATA, new HashMap<>());
        overlays.put(DeviceRole.INDEX, new HashMap<>());
        for (final ImagePlan.Applied a : image.applied()) {
            final Timeline.Write w = a.write();
            for (int p = 0; p < w.pages(); p++) {
                final long page = w.firstPage() + p;
                if ((a.pages() == null || a.pages().get(p)) && durable.writer(w.role(), page) <= w.number()) {
                    overlays.get(w.role()).put(page, 1 + w.content() + p);
                }
            }
        }
        final String what = image.describe(timeline);
        final long events = timeline.eventsAt(image.cut());
        try (NativeMemory memory = new NativeMemory(RecoveryCheck.memoryBytes(config))) {
            final DevicePair devices = new DevicePair(
                new ImageDevice(DeviceRole.DATA, durable, overlays.get(DeviceRole.DATA), pages, memory),
                new ImageDevice(DeviceRole.INDEX, durable, overlays.get(DeviceRole.INDEX), pages, memory));
            final RecoveryCheck.Result rec = RecoveryCheck.onDevices(config, memory, devices,
                k -> tags.getOrDefault(k, WorkloadDriver.tagOf(k)), timeoutNs, what);
            return Judge.judge(image.number(), what, config.commitMode(), cut(acks, events, plant), rec);
        } catch (final BadDevice e) {
            return KillVerdict.broken(image.number(), what, "recovery failed on the image: " + e.getMessage());
        }
    }

    /**
     * The acknowledgement log as a power cut before event {@code events} leaves it: what happened at that event or
     * later did not, and the run "died" at the event before it. With {@link PlantedFault#ACK_AT_CLAIM}, every commit
     * the run acknowledged counts as acknowledged at its claim.
     */
    static AckLog cut(final AckLog full, final long events, final PlantedFault plant) {
        final Map<Long, AckLog.Allocation> kept = new LinkedHashMap<>();
        for (final AckLog.Allocation a : full.allocations().values()) {
            if (a.allocatedAt() < events) {
                final long ackAt = plant == PlantedFault.ACK_AT_CLAIM && a.committed() ? a.allocatedAt()
                    : a.committedAt();
                kept.put(a.allocationId(), new AckLog.Allocation(a.key(), a.allocationId(), a.startSlot(),
                    a.slotCount(), a.tag(), a.allocatedAt(), ackAt < events ? ackAt : AckLog.NEVER,
                    a.evictedAt() < events ? a.evictedAt() : AckLog.NEVER));
            }
        }
        return new AckLog(kept, full.markers().stream().filter(m -> m.seq() < events).toList(),
            full.shutdownDurableAt() < events ? full.shutdownDurableAt() : AckLog.NEVER, Math.max(0, events - 1),
            "power-cut", full.notes());
    }
}
