package io.quarkiverse.lock.deployment.locked.invalid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A test of an application whose beans misuse {@code @Locked}: its build (or startup) must fail with a message naming
 * the method and the problem. A subclass registers the application, built here.
 */
abstract class InvalidLockedMethod {

    @Test
    void theApplicationFails() {
        Assertions.fail("the build or the startup must fail");
    }

    /** One bean, one failure that must mention every word somewhere. */
    static QuarkusUnitTest failingBuild(Class<?> bean, String... expectedWords) {
        return app(bean).assertException(failure -> StartupFailure.assertMentions(failure, expectedWords));
    }

    /**
     * Beans with many misuses in one build: the failure must hold one error per misuse (not counting the summary of
     * them all), and each misuse's words must all stand in exactly one of them.
     *
     * @param misuses per misuse, the words its error must contain, the first naming its method or class
     */
    @SafeVarargs
    static QuarkusUnitTest failingBuild(List<Class<?>> beans, List<String>... misuses) {
        return app(beans.toArray(Class<?>[]::new)).assertException(failure -> {
            List<String> errors = errors(failure);
            assertThat(errors).as("the errors of the build").hasSize(misuses.length);
            for (List<String> words : misuses) {
                assertThat(errors).as("the errors about " + words.get(0))
                        .filteredOn(error -> words.stream().allMatch(error::contains)).hasSize(1);
            }
        });
    }

    private static QuarkusUnitTest app(Class<?>... beans) {
        Class<?>[] classes = Arrays.copyOf(beans, beans.length + 1);
        classes[beans.length] = InvalidLockedMethod.class;
        return LockTestApplication.inMemory(classes);
    }

    /** The messages of the failure's leaves: those of its causes and suppressed that have neither of their own. */
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
