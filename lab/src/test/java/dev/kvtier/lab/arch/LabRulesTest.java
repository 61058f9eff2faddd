package dev.kvtier.lab.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.sim.run.SimModel;
import dev.kvtier.sim.run.SimRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lab} sits between the two worlds and the command line: it may use sim, realio and scenarios, but never the
 * CLI nor picocli (a request record in, an exit code out), and only {@code lab.run.Runs} builds a composition root, so
 * every run of a scenario goes through one API.
 */
class LabRulesTest {
    private static final JavaClasses LAB = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.kvtier.lab");

    @Test
    void labShouldBeImported() {
        assertTrue(LAB.contain("dev.kvtier.lab.run.Runs"), "Runs is imported");
    }

    @Test
    void labShouldNotDependOnTheCommandLine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.kvtier.cli..", "picocli..")
            .check(LAB);
    }

    @Test
    void onlyRunsShouldBuildACompositionRoot() {
        noClasses().that().doNotHaveFullyQualifiedName("dev.kvtier.lab.run.Runs")
            .should().callConstructor(SimRun.class, RunSpec.class, SimModel.class, long.class, List.class)
            .orShould().callMethodWhere(DescribedPredicate.describe("RealRun.open",
                call -> call.getTarget().getOwner().isEquivalentTo(RealRun.class)
                    && call.getTarget().getName().equals("open")))
            .check(LAB);
    }
}
