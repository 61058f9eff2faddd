package dev.kvtier.core.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
 * Architecture and determinism rules for {@code core} (docs/design/ARCHITECTURE.md, docs/design/STYLE.md rule 5): it
 * depends on no other kvtier module, and nothing in it reads the wall clock, sleeps, starts threads or uses unseeded
 * randomness. The same determinism rules hold for {@code harness}, which shares run logic between both modes; they are
 * checked with the simulator's ({@code SimDeterminismRulesTest}, whose module sees the harness) and in {@code harness}
 * itself.
 */
class ArchitectureTest {
    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.kvtier.core");
    }

    @Test
    void coreShouldDependOnNoOtherKvtierModule() {
        noClasses().that().resideInAPackage("dev.kvtier.core..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.kvtier.journal..", "dev.kvtier.harness..",
                "dev.kvtier.sim..", "dev.kvtier.realio..", "dev.kvtier.scenarios..", "dev.kvtier.lab..",
                "dev.kvtier.cli..",
                "dev.kvtier.property..")
            .check(core);
    }

    /**
     * The core's vocabulary sits on its own floor: the values events carry ({@code value}) use nothing of the core,
     * and the events ({@code event}) use nothing of it but those values, so every package of the core may use both
     * and no arrow points back up from the vocabulary into the core's workings.
     */
    @Test
    void valuesShouldDependOnNothingElseInCore() {
        assertTrue(core.contain("dev.kvtier.core.value.PrefixKey"), "the value package is imported");
        noClasses().that().resideInAPackage("dev.kvtier.core.value")
            .should().dependOnClassesThat(resideInAPackage("dev.kvtier.core..")
                .and(not(resideInAPackage("dev.kvtier.core.value"))))
            .check(core);
    }

    @Test
    void eventsShouldDependOnNothingInCoreButTheValues() {
        assertTrue(core.contain("dev.kvtier.core.event.CoreEvent"), "the event package is imported");
        noClasses().that().resideInAPackage("dev.kvtier.core.event")
            .should().dependOnClassesThat(resideInAPackage("dev.kvtier.core..")
                .and(not(resideInAnyPackage("dev.kvtier.core.event", "dev.kvtier.core.value"))))
            .check(core);
    }

    @Test
    void coreShouldNotReadTheWallClock() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().dependOnClassesThat().areAssignableTo(Clock.class)
            .check(core);
    }

    @Test
    void coreShouldNotSleepOrStartThreads() {
        noClasses().should().callMethod(Thread.class, "sleep", long.class)
            .orShould().callConstructor(Thread.class)
            .orShould().callConstructor(Thread.class, Runnable.class)
            .orShould().callMethod(Thread.class, "start")
            .orShould().callMethod(Thread.class, "ofVirtual")
            .orShould().callMethod(Thread.class, "ofPlatform")
            .orShould().dependOnClassesThat().areAssignableTo(ExecutorService.class)
            .orShould().dependOnClassesThat().areAssignableTo(Executors.class)
            .orShould().callMethod(java.util.Collection.class, "parallelStream")
            .check(core);
    }

    @Test
    void coreShouldUseNoUnseededRandomness() {
        noClasses().should().callConstructor(Random.class)
            .orShould().callMethod(Math.class, "random")
            .orShould().dependOnClassesThat().areAssignableTo(ThreadLocalRandom.class)
            .orShould().dependOnClassesThat().areAssignableTo(SecureRandom.class)
            .orShould().callMethod(System.class, "identityHashCode", Object.class)
            .check(core);
    }
}
