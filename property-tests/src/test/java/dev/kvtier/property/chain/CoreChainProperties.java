package dev.kvtier.property.chain;

import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.footnotes.EnableFootnotes;
import net.jqwik.api.footnotes.Footnotes;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The whole core in virtual time under random interleavings of lookup, allocate, save (staging, store, commit
 * through a client), load, drain, claim release, re-commit, completions of both devices' I/O in any order and
 * write-back of their caches (and, when the chain's knobs allow, EIO on the data device, EIO or ENOSPC on the index
 * device, silent corruption of a data page, and crashes: power loss with torn and lost unflushed pages, then a
 * restart that recovers the index).
 * The core always has its crash-safe index; its commit mode ({@code l1} or {@code durable}) is a knob. Every
 * invariant family of docs/design/STORAGE-CORE.md section 7 that the simulator checks is checked at every event
 * (per-core checkers start over at each restart); invariant 15 is checked after every restart and at the end
 * ({@link DurabilityChecker}); the harness cross-checks the core's inspection after every action; at the end of a
 * chain all I/O completes, the core drains, every committed prefix is loaded and every committed chunk loaded on its
 * own, and every loaded byte is checked.
 *
 * <p>A chain is a list of {@link Step}s, each independent of the ones before it, with knobs drawn per chain as a
 * separate parameter (swarm testing, {@link Knobs#swarm}); jqwik shrinks the steps as a list (dropping any step),
 * then the knobs. jqwik's own {@code ActionChain} was tried first: its steps depend on the state they were
 * generated from, and on this core it left failing chains of 20 to 50 steps after a minute of shrinking.
 *
 * <p>Each property prints what its chains did ({@link ChainStats}): chains, actions, checkpoints, crashes, faults
 * injected, durable commits checked after restarts, and violations. Found so far (now fixed, kept in
 * {@link RegressionChainsTest}): a data I/O queued behind an index I/O never submitted (invariant 16), and a commit
 * left out of the checkpoint its own record started (invariant 15).
 */
@EnableFootnotes
@AddLifecycleHook(BudgetHook.class)
@AddLifecycleHook(ChainFailureHook.class)
@AddLifecycleHook(ChainStats.class)
class CoreChainProperties {
    /** Actions per chain at most. */
    static final int MAX_ACTIONS = 100;
    /** Actions per chain at most when a chain churns. */
    static final int MAX_CHURN_CHAIN = 60;

    @Provide
    Arbitrary<List<Step>> chains() {
        return Step.any().list().ofMaxSize(MAX_ACTIONS).withSizeDistribution(RandomDistribution.uniform());
    }

    @Provide
    Arbitrary<Knobs> swarm() {
        return Knobs.swarm();
    }

    @Provide
    Arbitrary<Knobs> swarmWithRequestsLargerThanTheRing() {
        return Knobs.swarm().map(Knobs::exceedingRing);
    }

    @Property(tries = 10000)
    void everyInvariantHoldsAfterEveryAction(@ForAll("chains") final List<Step> chain,
                                             @ForAll("swarm") final Knobs knobs, final Footnotes footnotes) {
        runChecked(new CoreHarness(knobs), chain, footnotes);
    }

    /**
     * Requests that claim more slots than the ring holds: later claims of a batch evict earlier ones at the same
     * slots, so a store mixes stale and current spans over the same file offsets. This found a false alarm of the
     * simulator's {@code SpanChecker} (invariant 7: rejected spans were recognised by file offset only), now fixed:
     * they are recognised by allocation and offset. Shrunk chain (L2 = 2 slots): allocate req1 [p0.b0]; save req1;
     * allocate req2 [p0.b0..b3]; complete io#1; allocate req3 [p0.b0..b3]; release claims of req2; save req3.
     */
    @Property(tries = 1000)
    void invariantsHoldWhenARequestExceedsTheRing(@ForAll("chains") final List<Step> chain,
                                                  @ForAll("swarmWithRequestsLargerThanTheRing") final Knobs knobs,
                                                  final Footnotes footnotes) {
        runChecked(new CoreHarness(knobs), chain, footnotes);
    }

    @Provide
    Arbitrary<Knobs> swarmThatCrashes() {
        return Combinators.combine(Knobs.swarm(), Arbitraries.of(true, false)).as(Knobs::crashing);
    }

    /**
     * Invariant 15 on its own: every chain may crash (in either commit mode), with the same steps as the swarm. After
     * each restart every durable commit acknowledged before the crash must be in the recovered index and load
     * correctly unless a corrupt step hit it; in either mode no load may return bytes other than its key's.
     */
    @Property(tries = 2000)
    void crashesNeverLoseDurableCommitsNorServeWrongBytes(@ForAll("chains") final List<Step> chain,
                                                          @ForAll("swarmThatCrashes") final Knobs knobs,
                                                          final Footnotes footnotes) {
        runChecked(new CoreHarness(knobs), chain, footnotes);
    }

    @Provide
    Arbitrary<List<Step>> chainsWithChurn() {
        return Step.chainWithOneChurn(MAX_CHURN_CHAIN);
    }

    /**
     * The index's checkpoints and laps under crashes: each chain churns once through enough fresh keys to fill the
     * index log's lap (a checkpoint to the other slot, then a new lap from the log area's start), with crashes
     * anywhere, including while a checkpoint is being written. The other steps alone never get that far. A churn
     * costs tens of milliseconds, hence the few tries.
     */
    @Property(tries = 30)
    void checkpointsAndLapsSurviveCrashes(@ForAll("chainsWithChurn") final List<Step> chain,
                                          @ForAll("swarmThatCrashes") final Knobs knobs, final Footnotes footnotes) {
        runChecked(new CoreHarness(knobs), chain, footnotes);
    }

    private static void runChecked(final CoreHarness harness, final List<Step> chain, final Footnotes footnotes) {
        try {
            harness.run(chain).finish();
            harness.forget();
        } catch (final Throwable failure) {
            ChainStats.add(ChainStats.Counter.VIOLATIONS, 1);
            ChainFailureHook.failed(harness, chain.stream().map(Step::toString).toList());
            footnotes.addFootnote(harness.report());
            throw failure;
        }
    }

    @AfterContainer
    static void printBudget() {
        System.out.println(Budget.summary());
    }
}
