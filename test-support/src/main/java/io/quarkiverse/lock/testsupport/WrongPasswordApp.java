package io.quarkiverse.lock.testsupport;

import java.util.List;
import java.util.function.Consumer;
import java.util.logging.LogRecord;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The application of a store's wrong-password test, which checks that the error is clear, comes fast and never
 * reaches a log.
 */
public final class WrongPasswordApp {

    private WrongPasswordApp() {
    }

    /**
     * Gives the application an operation timeout of 2 s, so that an error coming sooner is told apart from a timeout,
     * and searches its records, the lock categories' debug records included, for the password
     * ({@link LogSecrets#searchedForSecret(QuarkusUnitTest, String)}).
     *
     * @param app the application, configured to log in to its store with {@code wrongPassword}
     * @param wrongPassword the password no record may hold
     * @return {@code app}; its tests fail after they ran if a record held {@code wrongPassword}
     */
    public static QuarkusUnitTest of(QuarkusUnitTest app, String wrongPassword) {
        return of(app, wrongPassword, records -> {
        });
    }

    /**
     * As {@link #of(QuarkusUnitTest, String)}, with more checks of the same records (a {@code QuarkusUnitTest} takes
     * one check of its records).
     *
     * @param app the application, configured to log in to its store with {@code wrongPassword}
     * @param wrongPassword the password no record may hold
     * @param alsoChecked run on the records ({@code DEBUG} and above) after the password search passed
     * @return {@code app}; its tests fail after they ran if a record held {@code wrongPassword} or
     *         {@code alsoChecked} threw
     */
    public static QuarkusUnitTest of(QuarkusUnitTest app, String wrongPassword,
            Consumer<List<LogRecord>> alsoChecked) {
        return LogSecrets.searchedForSecret(app.overrideConfigKey("quarkus.lock.operation-timeout", "2s"),
                wrongPassword, alsoChecked);
    }
}
