package dev.kvtier.property.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Canaries (STYLE 22): the chain checks must fail when what they guard is broken. Each test runs one small chain
 * against a deliberately broken variant of the harness or its devices ({@link CoreHarness.Variant}) and requires
 * the violation, and runs the same chain against the honest harness and requires none, so a check that stops
 * firing, or fires on a correct core, fails here.
 */
class CanaryTest {
    /** Eight slots of L1, crashes and corruption allowed; everything else small and plain. */
    static Knobs knobs(final boolean durable) {
        return knobs(durable, 8);
    }

    /** One-slot keys of 4 KiB, a ring of 16, prompts of four blocks; crashes and corruption allowed. */
    static Knobs knobs(final boolean durable, final int l1Slots) {
        return new Knobs(1, l1Slots, 0, 16, 20, false, 4, 4, 4, 4, 4, 2, false, 1, false, false, 2, 4, 0, false,
            durable, true, true);
    }

    /** Allocate and save four keys of prompt 0, then complete I/O until their commit is durable. */
    static List<Step> saveFourKeysDurably() {
        final List<Step> steps = new ArrayList<>();
        steps.add(new Step.Allocate(0, 4, 1));
        steps.add(new Step.Save(0, false, false));
        for (int i = 0; i < 20; i++) {
            steps.add(new Step.CompleteIo(0));
        }
        return steps;
    }

    static List<Step> then(final List<Step> first, final Step... more) {
        final List<Step> out = new ArrayList<>(first);
        out.addAll(List.of(more));
        return out;
    }

    private static InvariantViolation violation(final CoreHarness.Variant variant, final List<Step> chain,
                                                final boolean durable) {
        return assertThrows(InvariantViolation.class, () -> new CoreHarness(knobs(durable), variant).run(chain)
            .finish(), variant + " must be caught");
    }

    @Test
    void shouldKeepEveryAcknowledgedDurableCommitAcrossACrash() {
        final CoreHarness h = new CoreHarness(knobs(true));
        h.run(then(saveFourKeysDurably(), new Step.Crash(0, true))).finish();
        assertEquals(4, h.durability().survivorsChecked(), "four durable commits checked in the recovered index");
        assertEquals(8, h.durability().survivorsLoaded(), "and each loaded and byte-checked after the restart and at"
            + " the end");
    }

    @Test
    void shouldReportADurableCommitMissingWhenTheRecoveredIndexIsWiped() {
        final InvariantViolation v = violation(CoreHarness.Variant.WIPE_INDEX_ON_RESTART,
            then(saveFourKeysDurably(), new Step.Crash(0, false)), true);
        assertEquals(Invariant.CRASH, v.invariant());
        assertTrue(v.getMessage().contains("is not in the recovered index"), v.getMessage());
    }

    @Test
    void shouldNotRequireL1CommitsToSurviveAWipe() {
        new CoreHarness(knobs(false), CoreHarness.Variant.WIPE_INDEX_ON_RESTART)
            .run(then(saveFourKeysDurably(), new Step.Crash(0, true))).finish();
    }

    /**
     * Devices that acknowledge FLUSH without persisting: a crash then loses or tears the data or the index of commits
     * the core acknowledged as durable. Which pages survive is drawn from the crash's seed; over twenty seeds most
     * lose something (a seed under which every page happened to be written loses nothing, and is not a violation).
     */
    @Test
    void shouldReportDurableCommitsLostByDevicesThatIgnoreFlush() {
        int caught = 0;
        for (long seed = 0; seed < 20; seed++) {
            final List<Step> chain = then(saveFourKeysDurably(), new Step.Crash(seed, true));
            new CoreHarness(knobs(true)).run(chain).finish();
            try {
                new CoreHarness(knobs(true), CoreHarness.Variant.FLUSH_PERSISTS_NOTHING).run(chain).finish();
            } catch (final InvariantViolation v) {
                assertEquals(Invariant.CRASH, v.invariant(), v.getMessage());
                caught++;
            }
        }
        assertTrue(caught >= 15, "only " + caught + " of 20 crashes over devices that ignore FLUSH were caught");
    }

    @Test
    void shouldReportADurableCommitThatFailsItsChecksumWithNoCorruptionRecorded() {
        final List<Step> chain = then(saveFourKeysDurably(), new Step.Corrupt(0), new Step.Crash(0, true));
        new CoreHarness(knobs(true)).run(chain).finish();
        final InvariantViolation v = violation(CoreHarness.Variant.UNRECORDED_CORRUPTION, chain, true);
        assertEquals(Invariant.CRASH, v.invariant());
        assertTrue(v.getMessage().contains("failed"), v.getMessage());
    }

    /** L1 of two slots, so the first key (on the corrupted page) is read back from the data device. */
    @Test
    void shouldReportAChunkOfThisCoreThatFailsItsChecksumWithNoCorruptionRecorded() {
        final List<Step> chain = then(saveFourKeysDurably(), new Step.Corrupt(0), new Step.Load(0, 1));
        for (final boolean durable : new boolean[] {false, true}) {
            new CoreHarness(knobs(durable, 2)).run(chain).finish();
            final InvariantViolation v = assertThrows(InvariantViolation.class, () -> new CoreHarness(
                knobs(durable, 2), CoreHarness.Variant.UNRECORDED_CORRUPTION).run(chain).finish());
            assertEquals(Invariant.LOAD_BYTES, v.invariant(), v.getMessage());
            assertTrue(v.getMessage().contains("committed by this core and failed its checksum"), v.getMessage());
        }
    }

    /** Content that is not the key's is caught when served from L1 and, after a crash, from L2. */
    @Test
    void shouldReportWrongBytesBeforeAndAfterACrash() {
        for (final boolean durable : new boolean[] {false, true}) {
            final InvariantViolation before = violation(CoreHarness.Variant.MISLABELED_CONTENT,
                then(saveFourKeysDurably(), new Step.Load(0, 1)), durable);
            assertEquals(Invariant.LOAD_BYTES, before.invariant(), before.getMessage());
        }
        // Only durable commits are sure to come back: l1-mode records are never flushed in this chain.
        final InvariantViolation after = violation(CoreHarness.Variant.MISLABELED_CONTENT,
            then(saveFourKeysDurably(), new Step.Crash(0, false), new Step.Load(0, 1)), true);
        assertEquals(Invariant.CRASH, after.invariant(), after.getMessage());
    }
}
