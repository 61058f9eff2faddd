package dev.kvtier.harness.run;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.ProvenanceChecker;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.probe.ProbeRecorder;
import dev.kvtier.harness.workload.RequestTiming;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.journal.codec.EventDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run keeps, in either mode: its own observers of every event (the invariant checker, the metrics, the event
 * digest and the coverage probes), and what the workload reports besides events: phase times relative to the run's
 * start, wrong bytes (each also reported to the checker as invariant 12), and when the workload finished; and the
 * report built from all of it. One per run; the composition root of each mode builds it.
 */
public final class RunRecorder implements WorkloadDriver.Observer {
    private final InvariantChecker checker;
    private final RunMetrics metrics;
    private final ProvenanceChecker provenance;
    private final Clock eventClock;
    private final EventDigest digest = new EventDigest();
    private final ProbeRecorder probes;
    private final List<RunReport.Phase> phases = new ArrayList<>();
    private long originNs;
    private long wrongBytes;
    private long finishedNs = -1;
    private long ttftBoundNs;
    private long ttftBoundFromNs;

    /**
     * A recorder of a core driven without a workload: its token account stays empty.
     *
     * @param checker    the run's invariant checker
     * @param metrics    the run's metrics
     * @param eventClock the clock that stamps every event in the digest (the server's: virtual or wall)
     */
    public RunRecorder(final InvariantChecker checker, final RunMetrics metrics, final Clock eventClock) {
        this(checker, metrics, eventClock, new ProvenanceChecker(1, 1));
    }

    /**
     * @param checker    the run's invariant checker
     * @param metrics    the run's metrics
     * @param eventClock the clock that stamps every event in the digest (the server's: virtual or wall)
     * @param provenance where every token came from: one of {@code checker}'s checkers (the recorder tells it of each
     *                   load sent and each request's end, and takes the run's token account from it)
     */
    public RunRecorder(final InvariantChecker checker, final RunMetrics metrics, final Clock eventClock,
                       final ProvenanceChecker provenance) {
        this.checker = checker;
        this.metrics = metrics;
        this.provenance = provenance;
        this.eventClock = eventClock;
        this.probes = new ProbeRecorder(checker.context().config());
    }

    /**
     * Adds the run's own observers to {@code sink}, in this order: the checker, the metrics, the digest, the probes
     * (none of them changes an event or calls into the core).
     */
    public FanOutSink observe(final FanOutSink sink) {
        return sink.add(checker).add(metrics).add(digest.sink(eventClock)).add(probes);
    }

    /** The run's coverage probes (the simulator reports its facts here). */
    public ProbeRecorder probes() {
        return probes;
    }

    /** Phase times are reported relative to {@code timeNs} (0 in virtual time; the wall clock at start in real). */
    public void origin(final long timeNs) {
        this.originNs = timeNs;
    }

    @Override
    public void wrongBytes(final long requestId, final int block, final long offset, final PrefixKey key) {
        wrongBytes++;
        checker.report(Invariant.LOAD_BYTES, "request " + requestId + " block " + block + " (key " + key
            + ") loaded bytes that are not its key's, first at offset " + offset);
    }

    @Override
    public void phaseEnded(final int index, final String name, final long startNs, final long endNs) {
        phases.add(new RunReport.Phase(name, startNs - originNs, endNs - originNs, endNs - startNs));
    }

    /**
     * Bounds every request's time to first token, from its arrival (queueing included), to {@code boundNs} (0: none):
     * a later first token violates invariant 16. Requests that arrived before {@code fromNs} (while faults were being
     * injected) are not bound.
     */
    public void ttftBound(final long boundNs, final long fromNs) {
        this.ttftBoundNs = boundNs;
        this.ttftBoundFromNs = fromNs;
    }

    @Override
    public void requestDone(final RequestTiming t) {
        metrics.request(t);
        provenance.requestDone(t);
        if (ttftBoundNs > 0 && t.arrivalNs() >= ttftBoundFromNs && t.ttftNs() > ttftBoundNs) {
            checker.report(Invariant.LIVENESS, "request " + t.requestId() + " (phase " + t.phase() + ") gave its "
                + "first token " + t.ttftNs() + " ns after it arrived (queueing included), TTFT bound " + ttftBoundNs
                + " ns");
        }
    }

    @Override
    public void loadSent(final long requestId, final long loadId) {
        provenance.loadSent(requestId, loadId);
    }

    /** Where each request's input tokens came from, in the order the requests ended. */
    public List<RequestTokens> requestTokens() {
        return provenance.requests();
    }

    @Override
    public void finished(final long timeNs) {
        finishedNs = timeNs;
    }

    public boolean done() {
        return finishedNs >= 0;
    }

    /** When the workload finished (clock of the run), or -1. */
    public long finishedNs() {
        return finishedNs;
    }

    /** Extra figures that only the runner knows. */
    public record Extras(long serverBusyNanos, long injectedIoErrors, long writeErrors) {}

    /**
     * The report of a run: identity, the digest's figures, the metrics and what was recorded here; {@code nanos} is
     * the run's elapsed time on its clock. Finishes the digest: call it once, after the last event.
     */
    public RunReport report(final String scenario, final RunMode mode, final long seed, final long nanos,
                            final String violation, final Extras extras) {
        final RunMetrics m = metrics;
        probes.fact(ProbeCatalogue.LOOKUP_OTHER_MODEL, provenance.otherModelStops());
        final RunReport.Metrics figures = new RunReport.Metrics(m.storedBytes(), m.loadedBytes(), m.l1HitRatio(),
            m.l2Reads(), m.l2Writes(), m.writeOps(), m.meanWriteBytes(), phaseNanos("cold"), phaseNanos("warm"),
            m.storeAck(), m.load(), m.ttft(), m.engine(), m.requests(), provenance.tokenSources(), m.loadFailures(),
            m.ringEvictions(),
            m.l1Evictions(),
            m.memoryWaits(), extras.serverBusyNanos(), nanos <= 0 ? 0 : (double) extras.serverBusyNanos() / nanos,
            wrongBytes, extras.injectedIoErrors(), extras.writeErrors(), m.l2Traffic());
        return new RunReport(scenario, mode, seed, digest.eventCount(), nanos, digest.finish(),
            violation == null ? 0 : 1, violation, figures, phases, probes.reached());
    }

    private long phaseNanos(final String name) {
        for (final RunReport.Phase p : phases) {
            if (p.name().equals(name)) {
                return p.durationNanos();
            }
        }
        return 0;
    }
}
