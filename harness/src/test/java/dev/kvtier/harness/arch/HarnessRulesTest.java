package dev.kvtier.harness.arch;

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
 * Rules for {@code harness}, what both modes share (STYLE.md rule 5): it holds run logic the simulator replays bit for
 * bit, so nothing in it reads the wall clock, sleeps, starts threads or uses unseeded randomness (a real run hands it
 * the wall clock through the core's Clock port). It sits between {@code journal} and the two roots: it depends on
 * neither root, nor on the scenario loader or the CLI.
 */
class HarnessRulesTest {
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
                "dev.kvtier.scenarios..", "dev.kvtier.cli..", "dev.kvtier.property..")
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
