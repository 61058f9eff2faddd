package dev.kvtier.bench;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.harness.check.CapacityChecker;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.Checker;
import dev.kvtier.harness.check.DirectoryChecker;
import dev.kvtier.harness.check.EvictionOrderChecker;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.LivenessChecker;
import dev.kvtier.harness.check.SliceOwnershipChecker;
import dev.kvtier.harness.check.SpanChecker;
import dev.kvtier.harness.check.StructureChecker;
import dev.kvtier.harness.check.WriteOrderChecker;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Builds one invariant checker family (or all of them, as a run has them) by name, through the harness's public
 * constructors only: the one place to change when a checker's constructor does.
 */
final class CheckerFamilies {
    /** The family names {@link CheckerBench} takes. */
    static final List<String> NAMES = List.of("capacity", "structure", "eviction-order", "slice-ownership", "spans",
        "write-order", "directory", "liveness", "all");

    private CheckerFamilies() {}

    /**
     * A checker over {@code config} stamped by {@code clock}, with the live core's counts from {@code entries} and
     * {@code resident}.
     */
    static InvariantChecker build(final String family, final CoreConfig config, final LongSupplier clock,
                                  final LongSupplier entries, final LongSupplier resident, final long livenessNs) {
        final CheckContext probe = new CheckContext(config);
        final List<Checker> checkers = switch (family) {
            case "capacity" -> List.of(new CapacityChecker(probe));
            case "structure" -> List.of(new StructureChecker(entries, resident));
            case "eviction-order" -> List.of(new EvictionOrderChecker(config.replacement()));
            case "slice-ownership" -> List.of(new SliceOwnershipChecker());
            case "spans" -> List.of(new SpanChecker());
            case "write-order" -> List.of(new WriteOrderChecker());
            case "directory" -> List.of(new DirectoryChecker());
            case "liveness" -> List.of(new LivenessChecker(livenessNs));
            case "all" -> null;
            default -> throw new IllegalArgumentException("no checker family " + family + "; one of " + NAMES);
        };
        if (checkers == null) {
            return InvariantChecker.standard(config, clock::getAsLong, entries, resident, livenessNs);
        }
        return new InvariantChecker(config, clock::getAsLong, checkers);
    }
}
