package io.quarkiverse.lock.testsupport.proxy;

/**
 * The wire protocol a {@link FaultProxy} reads, so that it can tell one reply from the next and pair each reply with
 * the request it answers.
 */
public enum WireProtocol {

    /**
     * Redis: RESP2 and RESP3 frames, including RESP3 push frames ({@code >}) and RESP2 pub/sub {@code message}
     * arrays on a subscribed connection. Replies are paired with requests in order; pushes answer no request.
     */
    REDIS,

    /**
     * MongoDB: wire messages (an int32 little-endian length prefix, then the header's requestID, responseTo and op
     * code). Replies are paired with requests by responseTo.
     */
    MONGODB,

    /**
     * PostgreSQL: protocol 3 messages (a type byte and an int32 big-endian length, after an untyped startup packet).
     * A request is a simple query, or the extended messages up to a {@code Sync}, named by its SQL; every server
     * message up to the {@code ReadyForQuery} that ends its answer is paired with it. Notifications are pushes.
     */
    POSTGRESQL,

    /**
     * MariaDB and MySQL: client/server protocol packets (an int24 little-endian length and a sequence number), the
     * server speaking first. A request is the connection's start (the greeting up to the server's {@code OK} or
     * {@code ERR} after the login) or one command; every packet of its response (an {@code OK}, an {@code ERR}, a
     * result set up to its last {@code EOF}, a prepared statement's description) is paired with it. The server pushes
     * nothing.
     */
    MARIADB
}
