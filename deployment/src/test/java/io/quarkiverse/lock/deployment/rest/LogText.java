package io.quarkiverse.lock.deployment.rest;

import java.util.logging.LogRecord;

import org.jboss.logmanager.ExtLogRecord;

/**
 * The text of a log record as the log shows it, with its parameters in place.
 */
final class LogText {

    private LogText() {
    }

    static String of(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
