package dev.kvtier.cli.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The command line holds only picocli commands and the option mixins they share (issue 32): what a command does besides
 * parsing lives in {@code lab}, and no command calls another (only {@code Main}, the root, names them all). A class
 * that is neither a command nor a mixin, or a command that reaches into another command, fails here with its name.
 */
class CliRulesTest {
    private static final JavaClasses CLI = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.kvtier.cli");

    private static final DescribedPredicate<JavaClass> COMMANDS = new DescribedPredicate<>("picocli commands") {
        @Override
        public boolean test(final JavaClass c) {
            return isCommand(c);
        }
    };

    private static final List<Class<? extends java.lang.annotation.Annotation>> PICOCLI_FIELDS = List.of(Option.class,
        Parameters.class, Spec.class, Mixin.class);

    @Test
    void theCommandsShouldBeImported() {
        assertTrue(CLI.contain("dev.kvtier.cli.Main"), "Main is imported");
        assertTrue(CLI.contain("dev.kvtier.cli.RunCommand"), "RunCommand is imported");
    }

    @Test
    void everyClassShouldBeACommandOrAnOptionMixin() {
        classes().that().areTopLevelClasses().and().doNotHaveSimpleName("package-info")
            .should(beACommandOrAMixin()).check(CLI);
    }

    @Test
    void noCommandShouldReferToAnotherCommand() {
        noClasses().that(COMMANDS).and().doNotHaveFullyQualifiedName("dev.kvtier.cli.Main")
            .should(referToAnotherCommand()).check(CLI);
    }

    @Test
    void cliShouldNotReachTheWorldsRootsDirectly() {
        noClasses().should().dependOnClassesThat().haveFullyQualifiedName("dev.kvtier.sim.run.SimRun")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.kvtier.realio.run.RealRun")
            .because("a run goes through lab's one API (dev.kvtier.lab.run.Runs)")
            .check(CLI);
    }

    /** A command runs: it carries {@code @Command} and is a Callable or a Runnable (a mixin may carry the first). */
    private static boolean isCommand(final JavaClass c) {
        return c.isAnnotatedWith(Command.class) && (c.isAssignableTo(Callable.class) || c.isAssignableTo(
            Runnable.class));
    }

    private static ArchCondition<JavaClass> beACommandOrAMixin() {
        return new ArchCondition<>("be a picocli command or an option mixin (a class whose fields are all picocli's)") {
            @Override
            public void check(final JavaClass c, final ConditionEvents events) {
                if (isCommand(c)) {
                    return;
                }
                final boolean mixin = !c.getFields().isEmpty() && c.getFields().stream().allMatch(
                    CliRulesTest::isPicocliField);
                if (!mixin) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " is neither a @Command nor an option "
                        + "mixin: move what it does to lab"));
                }
            }
        };
    }

    private static boolean isPicocliField(final JavaField f) {
        return PICOCLI_FIELDS.stream().anyMatch(f::isAnnotatedWith);
    }

    private static ArchCondition<JavaClass> referToAnotherCommand() {
        return new ArchCondition<>("refer to another command") {
            @Override
            public void check(final JavaClass c, final ConditionEvents events) {
                c.getDirectDependenciesFromSelf().forEach(d -> {
                    final JavaClass target = d.getTargetClass();
                    final boolean own = target.equals(c) || target.getName().startsWith(c.getName() + "$")
                        || c.getName().startsWith(target.getName() + "$");
                    if (!own && isCommand(target)) {
                        events.add(SimpleConditionEvent.violated(c, d.getDescription()));
                    }
                });
            }
        };
    }
}
