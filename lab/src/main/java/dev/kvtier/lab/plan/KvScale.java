package dev.kvtier.lab.plan;

import dev.kvtier.core.geometry.ModelGeometry;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.sim.run.SimModel;
import java.util.Locale;

/**
 * How a plan maps the sizes a user buys onto a scenario whose model's KV is shrunk to run fast (the bundled trace
 * scenario keeps one KV head of one layer: 8 KiB slots for Qwen3-8B's 2.25 MiB). With the real model's slot {@code
 * realSlotBytes} and the scenario's {@code simSlotBytes}, the factor is their ratio: every slot is the same slot in
 * both, so a real size holds as many slots as the simulated size {@code real / factor}, and the simulated disk and
 * host move bytes {@code factor} times slower (their bandwidths over the factor, their per-operation costs as they
 * are), so a transfer takes the real model's time. Bytes the simulation reports are multiplied back by the factor.
 *
 * @param realModel     the model whose KV the sizes are for
 * @param realSlotBytes its slot (one block of the scenario's block size, all layers)
 * @param simSlotBytes  the scenario's slot
 */
public record KvScale(String realModel, long realSlotBytes, long simSlotBytes) {
    public KvScale {
        if (realSlotBytes < simSlotBytes) {
            throw new IllegalArgumentException("the real model's slot (" + realSlotBytes + " B) is smaller than the "
                + "scenario's (" + simSlotBytes + " B): plan with the scenario's own model");
        }
    }

    /** The scale of {@code sc} for {@code preset} (its block size kept), or none (factor 1) without one. */
    public static KvScale of(final Scenario sc, final ModelGeometry preset) {
        final ModelGeometry m = sc.model();
        if (preset == null) {
            return new KvScale(m.name(), m.slotBytes(), m.slotBytes());
        }
        final ModelGeometry real = new ModelGeometry(preset.name(), preset.kvHeads(), preset.headDim(),
            preset.layers(), m.blockTokens(), preset.dtypeBytes(), preset.kvPerHead());
        return new KvScale(real.name(), real.slotBytes(), m.slotBytes());
    }

    /** Real bytes over simulated bytes. */
    public double factor() {
        return (double) realSlotBytes / simSlotBytes;
    }

    /** The simulated size, in whole slots, of a real {@code bytes} (at least one slot). */
    public long simSlotsBytes(final long bytes) {
        return Math.max(1, bytes / realSlotBytes) * simSlotBytes;
    }

    /** {@code sim} with its disk's and host's bandwidths over the factor. */
    public SimModel scaled(final SimModel sim) {
        if (realSlotBytes == simSlotBytes) {
            return sim;
        }
        final DeviceProfile d = sim.device();
        final DeviceProfile device = new DeviceProfile(d.name() + "/" + format(), d.readLatencyNs(),
            d.writeLatencyNs(), d.flushLatencyNs(), down(d.readBytesPerSec()), down(d.writeBytesPerSec()),
            d.parallelism(), down(d.drainBytesPerSec()), d.drainDelayNs());
        final HostCostProfile h = sim.host();
        final HostCostProfile host = new HostCostProfile(h.name() + "/" + format(), h.spanNs(), h.entryNs(),
            h.ioSubmitNs(), h.ioCompleteNs(), h.requestNs(), down(h.memcpyBytesPerSec()), down(h.dmaBytesPerSec()),
            h.copiesOnServerThread(), down(h.checksumBytesPerSec()), down(h.verifyBytesPerSec()),
            down(h.stampBytesPerSec()), h.eventNs(), h.engineOnServerThread(), down(h.checksumCopiedBytesPerSec()),
            h.copyOpNs(), h.otherWorkPpm());
        return new SimModel(device, host, sim.faults(), sim.maxEvents(), sim.reorder());
    }

    /** A bandwidth over the factor (0, "not charged", stays 0; a charged one stays at least 1 B/s). */
    private long down(final long bytesPerSec) {
        return bytesPerSec == 0 ? 0 : Math.max(1, Math.round(bytesPerSec / factor()));
    }

    /** For instance {@code Qwen3-8B KV x288 (2359296 B slots over 8192 B)}. */
    public String format() {
        return String.format(Locale.ROOT, "%s KV x%.4g (%d B slots over %d B)", realModel, factor(), realSlotBytes,
            simSlotBytes);
    }
}
