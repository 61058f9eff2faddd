package dev.kvtier.property.chain;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * One action of a chain. A step holds only its choices, drawn from fixed ranges; the harness resolves them against
 * the state when the step runs (an index modulo what exists; nothing happens when nothing does) and logs what it
 * did in concrete terms ({@code save req3 [p1.b0, p1.b1]}). Because no step depends on the steps before it, jqwik
 * shrinks a failing chain as a plain list: it drops any step and keeps the others as they were, then shrinks the
 * choices towards 0. {@code toString()} is the step as a person reads it in the shrunk sample.
 */
sealed interface Step {
    /** Choices are drawn below these and resolved against the state when the step runs. */
    int MAX_PROMPTS = 5;
    int MAX_KEYS = 8;
    int MAX_PICK = 8;
    int MAX_PAGE_PICK = 1024;

    /** Runs this step against the harness (one action: the checkers run at every event it causes). */
    void applyTo(CoreHarness h);

    /** Every kind of step, with how often each is drawn. */
    static Arbitrary<Step> any() {
        return Arbitraries.frequencyOf(Tuple.of(4, allocate()), Tuple.of(4, save()), Tuple.of(1, lookup()),
            Tuple.of(3, load()), Tuple.of(1, pick().map(LoadAgain::new)), Tuple.of(2, loadPart()),
            Tuple.of(7, pick().map(CompleteIo::new)),
            Tuple.of(1, pick().map(FailIo::new)), Tuple.of(1, Arbitraries.just(new Drain())),
            Tuple.of(1, pick().map(ReleaseClaims::new)), Tuple.of(1, pick().map(ReleaseLeftover::new)),
            Tuple.of(1, pick().map(Recommit::new)), Tuple.of(1, crash()), Tuple.of(1, pick().map(Destage::new)),
            Tuple.of(1, Arbitraries.integers().between(0, MAX_PAGE_PICK - 1).map(Corrupt::new)),
            Tuple.of(1, Arbitraries.of(false, true).map(FailIndexIo::new)));
    }

    /**
     * A chain of {@code maxSize} steps at most with one {@link Churn} or {@link ChurnThenCrash} among them (at a drawn
     * position): the churn is expensive (it saves over a thousand keys), so a chain gets one. Crashes are drawn more
     * often than in {@link #any}, so that some fall while a checkpoint is being written.
     */
    static Arbitrary<List<Step>> chainWithOneChurn(final int maxSize) {
        final Arbitrary<Step> steps = Arbitraries.frequencyOf(Tuple.of(8, any()), Tuple.of(1, crash()));
        final Arbitrary<Integer> laps = Arbitraries.of(1, 1, 2);
        final Arbitrary<Step> churn = Arbitraries.oneOf(
            Combinators.combine(laps, Arbitraries.of(false, true), Arbitraries.of(false, true)).as(Churn::new),
            Combinators.combine(laps, Arbitraries.of(false, true), Arbitraries.integers().between(0, 2),
                Arbitraries.longs()).as(ChurnThenCrash::new));
        return Combinators.combine(steps.list().ofMaxSize(maxSize - 1)
            .withSizeDistribution(RandomDistribution.uniform()), churn,
            Arbitraries.integers().between(0, maxSize - 1)).as((list, one, at) -> {
                final List<Step> out = new ArrayList<>(list);
                out.add(Math.min(at, out.size()), one);
                return out;
            });
    }

    private static Arbitrary<Step> crash() {
        return Combinators.combine(Arbitraries.longs(), Arbitraries.of(false, true)).as(Crash::new);
    }

    private static Arbitrary<Integer> pick() {
        return Arbitraries.integers().between(0, MAX_PICK - 1);
    }

    private static Arbitrary<Integer> prompt() {
        return Arbitraries.integers().between(0, MAX_PROMPTS - 1);
    }

    private static Arbitrary<Integer> model() {
        return Arbitraries.of(1, 1, 1, 2);
    }

    private static Arbitrary<Step> allocate() {
        return Combinators.combine(prompt(), Arbitraries.integers().between(1, MAX_KEYS), model()).as(Allocate::new);
    }

    private static Arbitrary<Step> save() {
        return Combinators.combine(pick(), Arbitraries.of(false, false, true), Arbitraries.of(false, false, false,
            true)).as(Save::new);
    }

    private static Arbitrary<Step> loadPart() {
        return Combinators.combine(pick(), pick(), Arbitraries.integers().between(0, 1), pick()).as(LoadPart::new);
    }

    private static Arbitrary<Step> lookup() {
        return Combinators.combine(prompt(), model()).as(Lookup::new);
    }

    private static Arbitrary<Step> load() {
        return Combinators.combine(prompt(), model()).as(Load::new);
    }

    /** Allocates the first {@code keys} keys of a prompt (clamped so a request fits the ring). */
    record Allocate(int prompt, int keys, int model) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.allocate(prompt, keys, model);
        }

        @Override
        public String toString() {
            return "allocate " + keys + " keys of prompt " + prompt + " model" + model;
        }
    }

    /** Saves an unsaved request's claims through the client (staging, store, commit). */
    record Save(int choice, boolean duplicateSpec, boolean leaveLastClaimed) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.save(choice, duplicateSpec, leaveLastClaimed);
        }

        @Override
        public String toString() {
            return "save unsaved request (choice " + choice + ")" + (duplicateSpec ? " +duplicate spec" : "")
                + (leaveLastClaimed ? " leaving its last key claimed" : "");
        }
    }

    /** Looks up a prompt's committed prefix (remembered for a later {@link LoadAgain}). */
    record Lookup(int prompt, int model) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.lookup(prompt, model);
        }

        @Override
        public String toString() {
            return "lookup prompt " + prompt + " model" + model;
        }
    }

    /** Looks up a prompt and loads its committed prefix; the bytes are checked when the load completes. */
    record Load(int prompt, int model) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.load(prompt, model);
        }

        @Override
        public String toString() {
            return "load cached prefix of prompt " + prompt + " model" + model;
        }
    }

    /** Loads an earlier lookup's allocations again (they may have been evicted since). */
    record LoadAgain(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.loadRemembered(choice);
        }

        @Override
        public String toString() {
            return "load an earlier lookup again (choice " + choice + ")";
        }
    }

    /** Loads a sub-range of an earlier lookup's allocations (slots inside a chunk or a coalesced entry). */
    record LoadPart(int choice, int key, int slot, int slots) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.loadPart(choice, key, slot, slots);
        }

        @Override
        public String toString() {
            return "load " + (slots + 1) + " slots from slot " + slot + " of key " + key
                + " of an earlier lookup (choice " + choice + ")";
        }
    }

    /** Completes one in-flight I/O successfully (the oldest on an in-order device). */
    record CompleteIo(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.completeIo(choice);
        }

        @Override
        public String toString() {
            return "complete in-flight I/O (choice " + choice + ")";
        }
    }

    /** Fails one in-flight I/O with EIO, when the chain's knobs allow faults. */
    record FailIo(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.failIo(choice);
        }

        @Override
        public String toString() {
            return "fail (EIO) in-flight I/O (choice " + choice + ")";
        }
    }

    /** Asks the server to drain (the callback runs once no write is pending). */
    record Drain() implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.drain();
        }

        @Override
        public String toString() {
            return "drain";
        }
    }

    /** Releases every claim of an unsaved request. */
    record ReleaseClaims(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.releaseUnsaved(choice);
        }

        @Override
        public String toString() {
            return "release the claims of an unsaved request (choice " + choice + ")";
        }
    }

    /** Releases a claim a save left out. */
    record ReleaseLeftover(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.releaseLeftover(choice);
        }

        @Override
        public String toString() {
            return "release a left-over claim (choice " + choice + ")";
        }
    }

    /** Commits an allocation that was committed before (a no-op, or a late commit if it was evicted). */
    record Recommit(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.recommit(choice);
        }

        @Override
        public String toString() {
            return "commit a committed allocation again (choice " + choice + ")";
        }
    }

    /** One device writes its oldest cached write back on its own (data device for an even choice, else index). */
    record Destage(int choice) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.destage(choice);
        }

        @Override
        public String toString() {
            return "the " + (choice % 2 == 0 ? "data" : "index") + " device destages its oldest cached write";
        }
    }

    /**
     * Power loss, then a restart that recovers the index from its device (when the chain's knobs allow crashes):
     * every unflushed write's pages are written, lost or torn as {@code seed} draws them. {@code sweep} loads every
     * recovered chunk at once.
     */
    record Crash(long seed, boolean sweep) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.crash(seed, sweep);
        }

        @Override
        public String toString() {
            return "crash (seed " + seed + ")" + (sweep ? " and load every recovered chunk" : "");
        }
    }

    /** Silently corrupts one written page of the data device (when the chain's knobs allow corruption). */
    record Corrupt(int page) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.corrupt(page);
        }

        @Override
        public String toString() {
            return "corrupt a written data page (choice " + page + ")";
        }
    }

    /** Fails the index device's I/O in flight: ENOSPC (a write) or EIO, when the chain's knobs allow faults. */
    record FailIndexIo(boolean enospc) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.failIndexIo(enospc);
        }

        @Override
        public String toString() {
            return "fail the index I/O in flight (" + (enospc ? "ENOSPC if a write" : "EIO") + ")";
        }
    }

    /**
     * Saves fresh keys until the index log has passed half its area {@code laps} times (checkpoints, new laps); with
     * {@code midCheckpoint}, stops once the next checkpoint is under way. {@code oneKeyRequests} saves one key per
     * request (each commit on its own: the append that fills the lap is then a COMMIT, not one of a group).
     */
    record Churn(int laps, boolean midCheckpoint, boolean oneKeyRequests) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.churn(laps, midCheckpoint, oneKeyRequests);
        }

        @Override
        public String toString() {
            return "churn through " + laps + " index log lap" + (laps > 1 ? "s" : "")
                + (oneKeyRequests ? " one key per request" : "")
                + (midCheckpoint ? ", stopping while a checkpoint is written" : "");
        }
    }

    /**
     * Churns until a checkpoint is under way, completes {@code progress} of the index device's I/Os (the checkpoint's
     * write, then its flush), then crashes with {@code seed} and loads every recovered chunk.
     */
    record ChurnThenCrash(int laps, boolean oneKeyRequests, int progress, long seed) implements Step {
        @Override
        public void applyTo(final CoreHarness h) {
            h.churn(laps, true, oneKeyRequests);
            h.completeIndexIo(progress);
            h.crash(seed, true);
        }

        @Override
        public String toString() {
            return "churn through " + laps + " index log lap" + (laps > 1 ? "s" : "")
                + (oneKeyRequests ? " one key per request" : "") + " into a checkpoint, complete " + progress
                + " index I/O, then crash (seed " + seed + ") and load every recovered chunk";
        }
    }
}
