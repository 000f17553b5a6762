package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The notifications a PostgreSQL connection received, read through its driver. The only class of the store that names
 * the PostgreSQL driver's types, which an application on another database does not have: it is loaded only once the
 * database was found to be PostgreSQL.
 */
final class PostgresNotifications {

    private PostgresNotifications() {
    }

    /**
     * Waits for notifications on the connection, which must have been unwrapped before ({@link #supported}).
     *
     * @param connection a connection of the PostgreSQL driver, maybe wrapped by the pool
     * @param channel the channel whose notifications are wanted
     * @param waitMillis how long to wait for the first
     * @return the payloads of the notifications on that channel, in order; none if none came in time
     * @throws SQLException if the connection failed
     */
    static List<String> await(Connection connection, String channel, int waitMillis) throws SQLException {
        PGNotification[] notifications = connection.unwrap(PGConnection.class).getNotifications(waitMillis);
        List<String> payloads = new ArrayList<>();
        if (notifications != null) {
            for (PGNotification notification : notifications) {
                if (channel.equals(notification.getName())) {
                    payloads.add(notification.getParameter());
                }
            }
        }
        return payloads;
    }

    /**
     * @param connection a connection of the datasource
     * @return {@code true} if it is one of the PostgreSQL driver, which reads notifications; {@code false} if the
     *         driver is another one, or the pool wraps it in a way that hides it
     */
    static boolean supported(Connection connection) {
        try {
            return connection.isWrapperFor(PGConnection.class);
        } catch (SQLException | LinkageError e) {
            return false;
        }
    }
}
