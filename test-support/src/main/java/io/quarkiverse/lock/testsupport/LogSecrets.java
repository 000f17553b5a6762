package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Checks that a secret, such as a wrong password, never reaches a log: not in a message, not in a thrown exception, not
 * in a parameter. For a {@code QuarkusUnitTest}:
 * {@code .setLogRecordPredicate(LogSecrets.RECORDS).assertLogRecords(LogSecrets.neverLogged(secret))}, with the lock
 * categories at {@code DEBUG} so that the debug records are searched too.
 */
public final class LogSecrets {

    /** The records searched: those of level {@code FINE} ({@code DEBUG}) and above. */
    public static final Predicate<LogRecord> RECORDS = record -> record.getLevel().intValue() >= Level.FINE.intValue();

    private LogSecrets() {
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
