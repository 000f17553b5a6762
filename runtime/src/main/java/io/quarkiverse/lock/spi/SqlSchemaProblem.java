package io.quarkiverse.lock.spi;

/**
 * What a SQL store logs when it could not make sure that its lock tables exist: one line saying what failed (reaching
 * the database, logging in to it, creating the tables) with only the advice that fits that cause, worded alike by
 * every SQL store. The cause is told apart by the SQLSTATE the database answered with: none (no connection, or no
 * answer in time), class {@code 28} (the credentials were refused), {@code 42501} (the user may not create the tables),
 * anything else (the creation failed otherwise).
 */
public final class SqlSchemaProblem {

    /** PostgreSQL's {@code insufficient_privilege}. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String INVALID_AUTHORIZATION_CLASS = "28";
    private static final String CONNECTION_EXCEPTION_CLASS = "08";

    private SqlSchemaProblem() {
    }

    /**
     * @param tables the tables as the message names them: {@code "the lock table locks"}, {@code "the lock tables a and
     *        b"}
     * @param several {@code true} if {@code tables} names more than one table, for the words that refer to them
     * @param createSchemaProperty the property that turns the creation off, such as
     *        {@code quarkus.lock.postgresql.create-schema}
     * @param sqlState the SQLSTATE the database answered with; {@code null} if it did not answer (no connection, a
     *        timeout)
     * @param cause the failure's message, without secrets (database errors name the user, never the password)
     * @return the message to log, on one line
     */
    public static String describe(String tables, boolean several, String createSchemaProperty, String sqlState,
            String cause) {
        String because = oneLine(cause);
        String them = several ? "them" : "it";
        String theyAre = several ? "they are" : "it is";
        String theyExist = several ? "they exist" : "it exists";
        if (sqlState == null || sqlState.startsWith(CONNECTION_EXCEPTION_CLASS)) {
            return "Could not connect to the database to check " + tables + " (" + because + "); lock operations fail "
                    + "until it answers, and the store checks again before the next one, creating what is missing";
        }
        if (sqlState.startsWith(INVALID_AUTHORIZATION_CLASS)) {
            return "Could not log in to the database to check " + tables + " (" + because + "); lock operations fail "
                    + "until the datasource's username and password are accepted";
        }
        if (sqlState.equals(INSUFFICIENT_PRIVILEGE)) {
            return "Could not create " + tables + ": the datasource's user may not create tables (" + because + "). "
                    + "Create " + them + " with the DDL in the guide as a user who may (this one needs only SELECT, "
                    + "INSERT, UPDATE and DELETE on " + them + "), or set " + createSchemaProperty + "=false if "
                    + theyAre + " created otherwise; lock operations fail until " + theyExist;
        }
        return "Could not create " + tables + " (" + because + "); lock operations fail until " + theyExist
                + ". Create " + them + " with the DDL in the guide, or set " + createSchemaProperty + "=false if "
                + theyAre + " created otherwise";
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replace('\n', ' ').replace('\r', ' ');
    }
}
