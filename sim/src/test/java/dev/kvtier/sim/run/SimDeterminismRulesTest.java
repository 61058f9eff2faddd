package dev.kvtier.sim.run;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The simulator, and the harness it shares with the real run (workload driver, checkers, metrics, recorder, seeded
 * entropy), may not read the wall clock, start threads or use unseeded randomness: one seed, one run. The simulator
 * never depends on the real-I/O module, nor the harness on either root.
 */
class SimDeterminismRulesTest {
    private static final JavaClasses SIM = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.kvtier.sim", "dev.kvtier.harness");

    @Test
    void harnessShouldBeCovered() {
        assertTrue(SIM.contain("dev.kvtier.harness.workload.WorkloadDriver"), "the harness is imported");
        assertTrue(SIM.contain("dev.kvtier.sim.run.SimRun"), "the simulator is imported");
    }

    @Test
    void simShouldNotDependOnRealio() {
        noClasses().that().resideInAPackage("dev.kvtier.sim..")
            .should().dependOnClassesThat().resideInAPackage("dev.kvtier.realio..")
            .check(SIM);
    }

    @Test
    void harnessShouldDependOnNeitherRoot() {
        noClasses().that().resideInAPackage("dev.kvtier.harness..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.kvtier.sim..", "dev.kvtier.realio..",
                "dev.kvtier.scenarios..", "dev.kvtier.lab..", "dev.kvtier.cli..")
            .check(SIM);
    }

    @Test
    void simAndHarnessShouldNotReadTheWallClockSleepOrStartThreads() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(Thread.class, "sleep", long.class)
            .orShould().callMethod(Thread.class, "start")
            .orShould().dependOnClassesThat().areAssignableTo(ExecutorService.class)
            .check(SIM);
    }

    @Test
    void simAndHarnessShouldUseOnlySeededRandomness() {
        noClasses().should().callConstructor(Random.class)
            .orShould().callMethod(Math.class, "random")
            .orShould().dependOnClassesThat().areAssignableTo(ThreadLocalRandom.class)
            .orShould().dependOnClassesThat().areAssignableTo(SecureRandom.class)
            .check(SIM);
    }
}
