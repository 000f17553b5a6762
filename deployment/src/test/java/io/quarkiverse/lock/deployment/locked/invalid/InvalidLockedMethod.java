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
     * them all), and each misuse's words must all stand in exactly one of them, of the misuse's type.
     */
    static QuarkusUnitTest failingBuild(List<Class<?>> beans, Misuse... misuses) {
        return app(beans.toArray(Class<?>[]::new)).assertException(failure -> {
            List<Throwable> errors = errors(failure);
            assertThat(errors).as("the errors of the build").hasSize(misuses.length);
            for (Misuse misuse : misuses) {
                assertThat(errors).as("the errors about " + misuse.words().get(0))
                        .filteredOn(error -> misuse.words().stream().allMatch(error.getMessage()::contains))
                        .singleElement().isInstanceOf(misuse.type());
            }
        });
    }

    /**
     * @param type the exception the build reports the misuse with
     * @param words the words its message must contain, the first naming its method or class
     */
    record Misuse(Class<? extends Throwable> type, List<String> words) {
    }

    static Misuse misuse(Class<? extends Throwable> type, String... words) {
        return new Misuse(type, List.of(words));
    }

    private static QuarkusUnitTest app(Class<?>... beans) {
        Class<?>[] classes = Arrays.copyOf(beans, beans.length + 1);
        classes[beans.length] = InvalidLockedMethod.class;
        return LockTestApplication.inMemory(classes);
    }

    /** The failure's leaves: its causes and suppressed that have neither of their own. */
    private static List<Throwable> errors(Throwable failure) {
        List<Throwable> errors = new ArrayList<>();
        collect(failure, errors);
        return errors;
    }

    private static void collect(Throwable t, List<Throwable> errors) {
        if (t == null) {
            return;
        }
        if (t.getSuppressed().length == 0 && t.getCause() == null) {
            errors.add(t);
        }
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, errors);
        }
        collect(t.getCause(), errors);
    }
}
