package dev.kvtier.sim.host;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.sim.loop.ServerThread;
import dev.kvtier.sim.memory.ProvenanceMemory;

/**
 * Charges the core's work to the simulated server thread as the core reports it: events for spans, entries,
 * I/Os and client calls; copies through the memory's copy listener (at DMA bandwidth when either side is the engine
 * KV region, at memcpy bandwidth otherwise); slot checksums, the workload's stamps and checks of content at their
 * bandwidths, and every event at the run's per-event observer cost, each only when the profile sets it (0: not
 * charged). Event costs are a lookup table, so most records cost nothing and the switch has a default. Must see each
 * event before anything stamps its time, so an event's time includes its own cost. The server thread takes a charge
 * only inside a step (see {@link ServerThread#charge}).
 */
public final class HostCostModel implements EventSink, ProvenanceMemory.CopyListener {
    private final HostCostProfile profile;
    private final ServerThread server;
    private final String engineRegion;
    private long chargedNs;

    /**
     * @param engineRegion name of the engine KV region; copies to or from it cost DMA bandwidth
     */
    public HostCostModel(final HostCostProfile profile, final ServerThread server, final String engineRegion) {
        this.profile = profile;
        this.server = server;
        this.engineRegion = engineRegion;
    }

    @Override
    public void emit(final CoreEvent event) {
        final long ns = switch (event) {
            case CoreEvent.SliceReserved e -> profile.spanNs();
            case CoreEvent.EntryEvicted e -> profile.entryNs();
            case CoreEvent.LoadHit e -> profile.entryNs();
            case CoreEvent.IoSubmitted e -> profile.ioSubmitNs();
            case CoreEvent.IoCompleted e -> profile.ioCompleteNs();
            case CoreEvent.Lookup e -> profile.requestNs();
            case CoreEvent.AllocateRequested e -> profile.requestNs();
            case CoreEvent.StoreReceived e -> profile.requestNs();
            case CoreEvent.LoadRequested e -> profile.requestNs();
            case CoreEvent.CommitRequested e -> profile.requestNs();
            default -> 0L;
        };
        charge(ns + profile.eventNs());
    }

    @Override
    public void copied(final ProvenanceMemory.ProvRegion src, final ProvenanceMemory.ProvRegion dst,
                       final long bytes) {
        final long bw = src.name().equals(engineRegion) || dst.name().equals(engineRegion)
            ? profile.dmaBytesPerSec() : profile.memcpyBytesPerSec();
        charge(Math.ceilDiv(Math.multiplyExact(bytes, 1_000_000_000L), bw));
    }

    @Override
    public void checksummed(final ProvenanceMemory.ProvRegion region, final long bytes) {
        charge(HostCostProfile.chargeNs(bytes, profile.checksumBytesPerSec()));
    }

    @Override
    public void stamped(final ProvenanceMemory.ProvRegion region, final long bytes) {
        charge(HostCostProfile.chargeNs(bytes, profile.stampBytesPerSec()));
    }

    @Override
    public void verified(final ProvenanceMemory.ProvRegion region, final long bytes) {
        charge(HostCostProfile.chargeNs(bytes, profile.verifyBytesPerSec()));
    }

    /** Host time charged so far. */
    public long chargedNs() {
        return chargedNs;
    }

    public HostCostProfile profile() {
        return profile;
    }

    private void charge(final long ns) {
        if (ns > 0) {
            chargedNs += ns;
            server.charge(ns);
        }
    }
}
