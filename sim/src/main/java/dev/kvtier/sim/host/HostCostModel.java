package dev.kvtier.sim.host;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.sim.loop.EngineWorker;
import dev.kvtier.sim.loop.ServerThread;
import dev.kvtier.sim.memory.ProvenanceMemory;

/**
 * Charges the core's work to the simulated server thread as the core reports it: events for spans, entries,
 * I/Os and client calls; copies through the memory's copy listener (at DMA bandwidth when either side is the engine
 * KV region, at memcpy bandwidth otherwise); slot checksums, the workload's stamps and checks of content at their
 * bandwidths (each with the loop's other work that grows with it, {@code otherWorkPpm}), and every event at the
 * profile's per-event cost, each only when the profile sets it (0: not charged). Work done outside a server input
 * is the client's (staging a finished request's KV, stamping computed slots): it is charged to the engine's worker,
 * not the server. A host whose copies run beside its server thread
 * ({@link HostCostProfile#copiesOnServerThread} false) has them charged to the server's copy engine. Event costs are a
 * lookup table, so most records cost nothing and the switch has a default. Must see each event before anything
 * stamps its time, so an event's time includes its own cost.
 */
public final class HostCostModel implements EventSink, ProvenanceMemory.CopyListener {
    private final HostCostProfile profile;
    private final ServerThread server;
    private final EngineWorker worker;
    private final String engineRegion;
    private long chargedNs;

    /**
     * @param engineRegion name of the engine KV region; copies to or from it cost DMA bandwidth
     */
    public HostCostModel(final HostCostProfile profile, final ServerThread server, final EngineWorker worker,
                         final String engineRegion) {
        this.profile = profile;
        this.server = server;
        this.worker = worker;
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
        final long ns = profile.withOtherWork(profile.copyNs(bytes, bw));
        if (server.inStep() && !profile.copiesOnServerThread()) {
            chargedNs += ns;
            server.chargeCopy(ns);
            return;
        }
        charge(ns);
    }

    @Override
    public void checksummed(final ProvenanceMemory.ProvRegion region, final long bytes, final boolean afterCopy) {
        charge(profile.withOtherWork(profile.checksumNs(bytes, afterCopy)));
    }

    @Override
    public void stamped(final ProvenanceMemory.ProvRegion region, final long bytes) {
        charge(profile.withOtherWork(HostCostProfile.chargeNs(bytes, profile.stampBytesPerSec())));
    }

    @Override
    public void verified(final ProvenanceMemory.ProvRegion region, final long bytes) {
        charge(profile.withOtherWork(HostCostProfile.chargeNs(bytes, profile.verifyBytesPerSec())));
    }

    /** Host time charged so far. */
    public long chargedNs() {
        return chargedNs;
    }

    public HostCostProfile profile() {
        return profile;
    }

    /** Work inside a server input is the server thread's; work outside one is the client's, on the engine. */
    private void charge(final long ns) {
        if (ns <= 0) {
            return;
        }
        chargedNs += ns;
        if (server.inStep()) {
            server.charge(ns);
        } else {
            worker.charge(ns);
        }
    }
}
