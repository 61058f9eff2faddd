package dev.kvtier.property.chain;

import dev.kvtier.core.l2.AllocationRef;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;

/**
 * The actions of a chain. Each is generated from the harness's current state, so its description names concrete
 * requests, keys and I/Os ({@code save req3 [p1.b0, p1.b1] +duplicate spec}); a shrunk chain reads as a list of
 * such steps. Choices among existing things (which request, which I/O) are indices drawn below the current count,
 * so they shrink towards the first.
 */
final class CoreActions {
    private CoreActions() {
    }

    /** Every action with its weight. */
    static List<Weighted> all() {
        return List.of(new Weighted(4, new Allocate()), new Weighted(4, new Save()), new Weighted(1, new Lookup()),
            new Weighted(3, new Load()), new Weighted(1, new LoadRemembered()), new Weighted(7, new CompleteIo()),
            new Weighted(1, new FailIo()), new Weighted(1, new Drain()), new Weighted(1, new ReleaseClaims()),
            new Weighted(1, new ReleaseLeftover()), new Weighted(1, new Recommit()));
    }

    /** An action and how often it is chosen relative to the others. */
    record Weighted(int weight, Action.Dependent<CoreHarness> action) { }

    private static Arbitrary<Integer> below(final int count) {
        return Arbitraries.integers().between(0, count - 1);
    }

    private static Arbitrary<Integer> model() {
        return Arbitraries.of(1, 1, 1, 2);
    }

    static final class Allocate implements Action.Dependent<CoreHarness> {
        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return Combinators.combine(below(h.knobs.prompts()),
                Arbitraries.integers().between(1, h.knobs.maxKeysPerRequest()), model()).as((p, n, m) ->
                Transformer.mutate("allocate req" + h.nextRequestId() + " model" + m + " "
                    + h.keys(p, n).stream().map(CoreHarness::label).toList(), s -> s.allocate(p, n, m)));
        }
    }

    static final class Save implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return !h.unsaved().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return Combinators.combine(below(h.unsaved().size()), Arbitraries.of(false, false, true),
                Arbitraries.of(false, false, false, true)).as((i, dup, leave) -> {
                    final CoreHarness.Claims c = h.unsaved().get(i);
                    final boolean leaves = leave && c.refs().size() > 1;
                    return Transformer.mutate("save req" + c.requestId() + " " + CoreHarness.labels(c.refs())
                        + (dup ? " +duplicate spec" : "") + (leaves ? " (last key left claimed)" : ""),
                        s -> s.save(i, dup, leaves));
                });
        }
    }

    static final class Lookup implements Action.Dependent<CoreHarness> {
        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return Combinators.combine(below(h.knobs.prompts()), model()).as((p, m) ->
                Transformer.mutate("lookup p" + p + " model" + m, s -> s.lookup(p, m)));
        }
    }

    static final class Load implements Action.Dependent<CoreHarness> {
        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return Combinators.combine(below(h.knobs.prompts()), model()).as((p, m) ->
                Transformer.mutate("load cached prefix of p" + p + " model" + m, s -> s.load(p, m)));
        }
    }

    static final class LoadRemembered implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return !h.remembered().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return below(h.remembered().size()).map(i -> Transformer.mutate("load earlier lookup "
                + CoreHarness.labels(h.remembered().get(i)) + " again", s -> s.loadRemembered(i)));
        }
    }

    static final class CompleteIo implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return h.device().inFlightCount() > 0;
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            final Arbitrary<Integer> which = h.knobs.inOrderDevice() ? Arbitraries.just(0)
                : below(h.device().inFlightCount());
            return which.map(i -> Transformer.mutate("complete " + h.device().describe(i), s -> s.completeIo(i)));
        }
    }

    static final class FailIo implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return h.knobs.faults() && h.device().inFlightCount() > 0;
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            final Arbitrary<Integer> which = h.knobs.inOrderDevice() ? Arbitraries.just(0)
                : below(h.device().inFlightCount());
            return which.map(i -> Transformer.mutate("fail (EIO) " + h.device().describe(i), s -> s.failIo(i)));
        }
    }

    static final class Drain implements Action.Dependent<CoreHarness> {
        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return Arbitraries.just(Transformer.mutate("drain", CoreHarness::drain));
        }
    }

    static final class ReleaseClaims implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return !h.unsaved().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return below(h.unsaved().size()).map(i -> {
                final CoreHarness.Claims c = h.unsaved().get(i);
                return Transformer.mutate("release claims of req" + c.requestId() + " "
                    + CoreHarness.labels(c.refs()), s -> s.releaseUnsaved(i));
            });
        }
    }

    static final class ReleaseLeftover implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return !h.leftover().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return below(h.leftover().size()).map(i -> {
                final AllocationRef ref = h.leftover().get(i);
                return Transformer.mutate("release unsaved claim " + CoreHarness.label(ref.key()),
                    s -> s.releaseLeftover(i));
            });
        }
    }

    static final class Recommit implements Action.Dependent<CoreHarness> {
        @Override
        public boolean precondition(final CoreHarness h) {
            return !h.committed().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<CoreHarness>> transformer(final CoreHarness h) {
            return below(h.committed().size()).map(i -> {
                final AllocationRef ref = h.committed().get(i);
                return Transformer.mutate("commit " + CoreHarness.label(ref.key()) + " (allocation "
                    + ref.allocationId() + ") again", s -> s.recommit(i));
            });
        }
    }
}
