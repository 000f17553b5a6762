package io.quarkiverse.lock.runtime.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The notifications a PostgreSQL connection received, read through its driver's {@code PGConnection}. The driver is
 * the application's, absent when its database is another one, so it is reached by reflection, which a native image
 * keeps when the driver is there ({@code JdbcLockProcessor} registers {@link #TYPES}), instead of by types the image
 * could not resolve without it.
 */
final class PostgresNotifications {

    /** The driver's types read here, by name. */
    static final List<String> TYPES = List.of("org.postgresql.PGConnection", "org.postgresql.PGNotification");

    private final Class<?> pgConnection;
    private final Method getNotifications;
    private final Method getName;
    private final Method getParameter;

    private PostgresNotifications(ClassLoader loader) throws ReflectiveOperationException {
        this.pgConnection = Class.forName(TYPES.get(0), false, loader);
        Class<?> notification = Class.forName(TYPES.get(1), false, loader);
        this.getNotifications = pgConnection.getMethod("getNotifications", int.class);
        this.getName = notification.getMethod("getName");
        this.getParameter = notification.getMethod("getParameter");
    }

    /**
     * @param connection a connection of the datasource
     * @return the reader of its notifications, or {@code null} if its driver is not PostgreSQL's, or the pool wraps it
     *         in a way that hides it
     */
    static PostgresNotifications of(Connection connection) {
        try {
            PostgresNotifications notifications = new PostgresNotifications(connection.getClass().getClassLoader());
            return connection.isWrapperFor(notifications.pgConnection) ? notifications : null;
        } catch (ReflectiveOperationException | SQLException | LinkageError e) {
            return null;
        }
    }

    /**
     * Waits for notifications on the connection.
     *
     * @param connection a connection of the PostgreSQL driver, maybe wrapped by the pool
     * @param channel the channel whose notifications are wanted
     * @param waitMillis how long to wait for the first
     * @return the payloads of the notifications on that channel, in order; none if none came in time
     * @throws SQLException if the connection failed
     */
    List<String> await(Connection connection, String channel, int waitMillis) throws SQLException {
        Object[] notifications = (Object[]) invoke(getNotifications, connection.unwrap(pgConnection), waitMillis);
        List<String> payloads = new ArrayList<>();
        if (notifications != null) {
            for (Object notification : notifications) {
                if (channel.equals(invoke(getName, notification))) {
                    payloads.add((String) invoke(getParameter, notification));
                }
            }
        }
        return payloads;
    }

    /**
     * Closes the driver's connection under the pool's wrapper, so that the pool, given the wrapper back, drops it: an
     * {@code abort()} of the wrapper does not reach it on every pool version.
     *
     * @param connection a connection of the PostgreSQL driver, maybe wrapped by the pool
     */
    void closeUnderlying(Connection connection) {
        try {
            if (connection.unwrap(pgConnection) instanceof Connection underlying) {
                underlying.close();
            }
        } catch (SQLException gone) {
            // closed already
        }
    }

    private static Object invoke(Method method, Object target, Object... arguments) throws SQLException {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException failure) {
                throw failure;
            }
            throw new SQLException("The PostgreSQL driver failed to read notifications", e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException("The PostgreSQL driver's notifications cannot be read", e);
        }
    }
}
