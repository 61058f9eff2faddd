package dev.kvtier.sim.run;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** The simulator may not read the wall clock, start threads or use unseeded randomness (one seed, one run). */
class SimDeterminismRulesTest {
    private static final JavaClasses SIM = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.kvtier.sim");

    @Test
    void simShouldNotReadTheWallClockSleepOrStartThreads() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(Thread.class, "sleep", long.class)
            .orShould().callMethod(Thread.class, "start")
            .orShould().dependOnClassesThat().areAssignableTo(ExecutorService.class)
            .check(SIM);
    }

    @Test
    void simShouldUseOnlySeededRandomness() {
        noClasses().should().callConstructor(Random.class)
            .orShould().callMethod(Math.class, "random")
            .orShould().dependOnClassesThat().areAssignableTo(ThreadLocalRandom.class)
            .orShould().dependOnClassesThat().areAssignableTo(SecureRandom.class)
            .check(SIM);
    }
}
