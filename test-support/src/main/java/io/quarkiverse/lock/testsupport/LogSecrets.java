package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Checks that a secret, such as a wrong password, never reaches a log: not in a message, not in a thrown exception, not
 * in a parameter. For a {@code QuarkusUnitTest}: {@link #searchedForSecret(QuarkusUnitTest, String)}, which puts the
 * lock categories at {@code DEBUG} so that the debug records are searched too.
 */
public final class LogSecrets {

    /** The records searched: those of level {@code FINE} ({@code DEBUG}) and above. */
    public static final Predicate<LogRecord> RECORDS = record -> record.getLevel().intValue() >= Level.FINE.intValue();

    private LogSecrets() {
    }

    /**
     * Puts the lock categories of the application at {@code DEBUG} and has its records checked with
     * {@link #neverLogged(String)} once its tests ran.
     *
     * @param app the test application
     * @param secret the text no record may hold
     * @return {@code app}, for more configuration; its tests fail with an {@link AssertionError} after they ran if a
     *         record of level {@code DEBUG} or above held {@code secret}
     */
    public static QuarkusUnitTest searchedForSecret(QuarkusUnitTest app, String secret) {
        return searchedForSecret(app, secret, records -> {
        });
    }

    /**
     * As {@link #searchedForSecret(QuarkusUnitTest, String)}, with more checks of the same records (a
     * {@code QuarkusUnitTest} takes one check of its records).
     *
     * @param app the test application
     * @param secret the text no record may hold
     * @param alsoChecked run on the records after the search for the secret passed
     * @return {@code app}, for more configuration; its tests fail with an {@link AssertionError} after they ran if a
     *         record of level {@code DEBUG} or above held {@code secret}, or if {@code alsoChecked} threw
     */
    public static QuarkusUnitTest searchedForSecret(QuarkusUnitTest app, String secret,
            Consumer<List<LogRecord>> alsoChecked) {
        return app.overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
                .setLogRecordPredicate(RECORDS)
                .assertLogRecords(neverLogged(secret).andThen(alsoChecked));
    }

    /**
     * @param secret the text no record may hold
     * @return a check of the records that throws an {@link AssertionError} if any record's message, thrown exception
     *         or parameters hold {@code secret}, and does nothing otherwise
     */
    public static Consumer<List<LogRecord>> neverLogged(String secret) {
        return records -> assertThat(records).as("log records holding the secret")
                .noneMatch(record -> String.valueOf(record.getMessage()).contains(secret)
                        || String.valueOf(record.getThrown()).contains(secret)
                        || Arrays.toString(record.getParameters()).contains(secret));
    }
}
