package dev.kvtier.harness.probe;

import dev.kvtier.core.event.CoreEvent;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * A coverage probe: a named rare path of the storage core, with a one-line meaning, and how a run tells that it was
 * reached. Most probes are predicates over the event stream ({@link Source#EVENT}: an event of one type, seen with
 * the run's {@link ProbeState} as it was before that event); a few are facts that only the simulator knows
 * ({@link Source#FACT}: a fault it injected, what a crash did to the devices), which its composition root reports.
 * Probes live outside the core: the core emits events and knows nothing of them.
 *
 * @param name    a stable dotted name ({@code ring.evict.space}): what summaries, {@code --require} and a
 *                scenario's {@code [coverage] required} use
 * @param meaning what reaching it means, in one line
 * @param source  where it is reached from
 * @param type    the event type the predicate looks at (null for a fact)
 * @param test    the predicate (null for a fact)
 */
public record Probe(String name, String meaning, Source source, Class<? extends CoreEvent> type,
                    BiPredicate<ProbeState, CoreEvent> test) {

    /** Where a probe is reached from. */
    public enum Source {
        /** An event of the core (or of a workload driver): both modes can reach it. */
        EVENT,
        /** A fact the simulator reports (an injected fault, a crash's damage): only virtual runs reach it. */
        FACT
    }

    public Probe {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(meaning, "meaning");
        Objects.requireNonNull(source, "source");
        if (!name.matches("[a-z0-9]+(\\.[a-z0-9-]+)+")) {
            throw new IllegalArgumentException("probe name must be dotted lower case, got '" + name + "'");
        }
        if (meaning.isBlank() || meaning.contains("\n")) {
            throw new IllegalArgumentException("probe " + name + " needs a one-line meaning");
        }
        if ((source == Source.EVENT) != (type != null && test != null)) {
            throw new IllegalArgumentException("probe " + name + ": an event probe has a type and a test, a fact"
                + " has neither");
        }
    }

    /** A probe reached by an event of {@code type} for which {@code test} holds. */
    @SuppressWarnings("unchecked")
    public static <E extends CoreEvent> Probe on(final Class<E> type, final String name, final String meaning,
                                                 final BiPredicate<ProbeState, E> test) {
        return new Probe(name, meaning, Source.EVENT, type, (s, e) -> test.test(s, (E) e));
    }

    /** A probe reached by every event of {@code type}. */
    public static <E extends CoreEvent> Probe any(final Class<E> type, final String name, final String meaning) {
        return on(type, name, meaning, (s, e) -> true);
    }

    /** A fact the simulator reports. */
    public static Probe fact(final String name, final String meaning) {
        return new Probe(name, meaning, Source.FACT, null, null);
    }
}
