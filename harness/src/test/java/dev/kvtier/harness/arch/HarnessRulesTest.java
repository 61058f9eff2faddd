package dev.kvtier.harness.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.kvtier.core.config.CoreConfig;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules for {@code harness}, what both modes share (docs/design/STYLE.md rule 5): it holds run logic the simulator
 * replays bit for bit, so nothing in it reads the wall clock, sleeps, starts threads or uses unseeded randomness (a
 * real run hands it the wall clock through the core's Clock port). It sits between {@code journal} and the two roots:
 * it depends on neither root, nor on the scenario loader or the CLI.
 */
class HarnessRulesTest {
    /**
     * The core's internals: anything of {@code dev.kvtier.core} but its events ({@code event}), its ports
     * ({@code port}), its knobs ({@code config}), the value records the events carry ({@code value}) and its plain
     * containers ({@code util}: no rule of the core lives there).
     */
    static final DescribedPredicate<JavaClass> CORE_INTERNALS = new DescribedPredicate<>(
        "the core's internals (not its events, ports, knobs or value records)") {
        @Override
        public boolean test(final JavaClass c) {
            final JavaClass top = c.getEnclosingClass().orElse(c);
            final String pkg = top.getPackageName();
            if (!pkg.startsWith("dev.kvtier.core")) {
                return false;
            }
            return !(pkg.startsWith("dev.kvtier.core.event") || pkg.startsWith("dev.kvtier.core.port")
                || pkg.equals("dev.kvtier.core.config") || pkg.equals("dev.kvtier.core.util")
                || pkg.equals("dev.kvtier.core.value"));
        }
    };

    private static JavaClasses harness;

    @BeforeAll
    static void importHarness() {
        harness = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.kvtier.harness");
        assertTrue(harness.contain("dev.kvtier.harness.workload.WorkloadDriver"), "the harness is imported");
    }

    @Test
    void harnessShouldDependOnNeitherRootNorTheLoaderNorTheCli() {
        noClasses().that().resideInAPackage("dev.kvtier.harness..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.kvtier.sim..", "dev.kvtier.realio..",
                "dev.kvtier.scenarios..", "dev.kvtier.lab..", "dev.kvtier.cli..", "dev.kvtier.property..")
            .check(harness);
    }

    /**
     * Checkers and probes are independent of the system under test (docs/design/STYLE.md rule 18, issue 15): they read
     * the core's events, ports, knobs and value records, never its internals (an admission formula, the ring, the
     * pool), so a wrong formula in the core cannot hide behind a checker that calls it.
     */
    @Test
    void checkersAndProbesShouldStayOffTheCoresInternals() {
        noClasses().that().resideInAnyPackage("dev.kvtier.harness.check..", "dev.kvtier.harness.probe..")
            .should().dependOnClassesThat(CORE_INTERNALS)
            .check(harness);
        assertTrue(CORE_INTERNALS.test(new ClassFileImporter().importClass(dev.kvtier.core.l1.Admission.class)),
            "the rule sees the core's admission arithmetic as an internal");
        assertFalse(CORE_INTERNALS.test(new ClassFileImporter().importClass(CoreConfig.class)), "knobs are allowed");
    }

    /** Nor do they take what the core's knobs derive: the ring's slots, the staging batch's slots, the pool. */
    @Test
    void checkersShouldComputeDerivedSizesThemselves() {
        noClasses().that().resideInAnyPackage("dev.kvtier.harness.check..", "dev.kvtier.harness.probe..")
            .should().callMethod(CoreConfig.class, "l2Slots")
            .orShould().callMethod(CoreConfig.class, "stagingBatchSlots")
            .orShould().callMethod(CoreConfig.class, "l1PoolBytes")
            .check(harness);
    }

    @Test
    void harnessShouldNotReadTheWallClock() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().dependOnClassesThat().areAssignableTo(Clock.class)
            .check(harness);
    }

    @Test
    void harnessShouldNotSleepOrStartThreads() {
        noClasses().should().callMethod(Thread.class, "sleep", long.class)
            .orShould().callConstructor(Thread.class)
            .orShould().callConstructor(Thread.class, Runnable.class)
            .orShould().callMethod(Thread.class, "start")
            .orShould().callMethod(Thread.class, "ofVirtual")
            .orShould().callMethod(Thread.class, "ofPlatform")
            .orShould().dependOnClassesThat().areAssignableTo(ExecutorService.class)
            .orShould().dependOnClassesThat().areAssignableTo(Executors.class)
            .orShould().callMethod(java.util.Collection.class, "parallelStream")
            .check(harness);
    }

    @Test
    void harnessShouldUseNoUnseededRandomness() {
        noClasses().should().callConstructor(Random.class)
            .orShould().callMethod(Math.class, "random")
            .orShould().dependOnClassesThat().areAssignableTo(ThreadLocalRandom.class)
            .orShould().dependOnClassesThat().areAssignableTo(SecureRandom.class)
            .orShould().callMethod(System.class, "identityHashCode", Object.class)
            .check(harness);
    }
}
