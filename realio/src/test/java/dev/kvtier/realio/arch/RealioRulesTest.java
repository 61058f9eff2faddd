package dev.kvtier.realio.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The real run's module shares the workload driver, checkers and metrics with the simulator through {@code harness},
 * never through {@code sim}: the real root takes no simulator setting and no simulated part.
 */
class RealioRulesTest {
    private static final JavaClasses REALIO = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.kvtier.realio");

    @Test
    void realioShouldNotDependOnSimNorTheLoaderNorTheCli() {
        assertTrue(REALIO.contain("dev.kvtier.realio.run.RealRun"), "realio is imported");
        noClasses().that().resideInAPackage("dev.kvtier.realio..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.kvtier.sim..", "dev.kvtier.scenarios..",
                "dev.kvtier.lab..", "dev.kvtier.cli..")
            .check(REALIO);
    }
}
