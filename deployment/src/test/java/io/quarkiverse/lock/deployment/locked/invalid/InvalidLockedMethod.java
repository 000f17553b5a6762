package io.quarkiverse.lock.deployment.locked.invalid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Builds an application whose beans misuse {@code @Locked}, and checks that the build (or startup) fails with a
 * message naming the method and the problem.
 */
final class InvalidLockedMethod {

    private InvalidLockedMethod() {
    }

    /** A bean that misuses {@code @Locked}, and the words the one error about it must all contain. */
    record Problem(Class<?> bean, List<String> words) {
    }

    static Problem problem(Class<?> bean, String... words) {
        return new Problem(bean, List.of(words));
    }

    /** One bean, one failure that must mention every word somewhere. */
    static QuarkusUnitTest failingBuild(Class<?> bean, String... expectedWords) {
        return app(bean).assertException(failure -> StartupFailure.assertMentions(failure, expectedWords));
    }

    /**
     * Many beans in one build: the failure must hold one error per bean (not counting the summary of them all), and
     * each bean's error must contain all its words.
     */
    static QuarkusUnitTest failingBuild(Problem... problems) {
        Class<?>[] beans = Arrays.stream(problems).map(Problem::bean).toArray(Class<?>[]::new);
        return app(beans).assertException(failure -> {
            List<String> errors = errors(failure);
            assertThat(errors).as("the errors of the build").hasSize(problems.length);
            for (Problem problem : problems) {
                assertThat(errors).as("the errors about " + problem.bean().getSimpleName())
                        .filteredOn(error -> problem.words().stream().allMatch(error::contains)).hasSize(1);
            }
        });
    }

    private static QuarkusUnitTest app(Class<?>... beans) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(beans))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.provider", "in-memory");
    }

    /** The messages of the failure's leaves: the throwables in its causes and suppressed that suppress none. */
    private static List<String> errors(Throwable failure) {
        List<String> errors = new ArrayList<>();
        collect(failure, errors);
        return errors;
    }

    private static void collect(Throwable t, List<String> errors) {
        if (t == null) {
            return;
        }
        if (t.getSuppressed().length == 0 && t.getCause() == null) {
            errors.add(t.getMessage());
        }
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, errors);
        }
        collect(t.getCause(), errors);
    }
}
