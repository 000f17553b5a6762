package io.quarkiverse.lock.testsupport.proxy;

/**
 * One reply (or server push) on its way from the server to the client, as a {@link FaultRule} sees it.
 *
 * @param connection the proxied connection it travels on, numbered from 1 in the order the proxy accepted them
 * @param request readable text of the request this reply answers: for {@link WireProtocol#REDIS} the command's words
 *        separated by spaces (such as {@code SET key value}); for {@link WireProtocol#MONGODB} the command document as
 *        JSON when {@code org.bson} is on the classpath, else the op code (such as {@code OP_MSG}); for
 *        {@link WireProtocol#POSTGRESQL} the SQL of the query or prepared statement ({@code startup} for the
 *        connection's start); for {@link WireProtocol#MARIADB} the SQL of the query or prepared statement, or the
 *        command's name (such as {@code COM_PING}; {@code startup} for the connection's start); {@code ?} if the
 *        proxy saw no request it answers; {@code null} for a push
 * @param reply readable text of the reply: for {@link WireProtocol#REDIS} strings and numbers as their text, a null
 *        as {@code (nil)}, an error as {@code (error) } and its message, an aggregate as {@code [a, b]} (a map as
 *        {@code {k=v}}); for {@link WireProtocol#MONGODB} the reply document as JSON (or the op code); for
 *        {@link WireProtocol#POSTGRESQL}
 *        the message's name (such as {@code ReadyForQuery}, {@code CommandComplete INSERT 0 1} or
 *        {@code ErrorResponse} and its message); for {@link WireProtocol#MARIADB} the packet's kind (such as
 *        {@code OK}, {@code Row}, {@code EOF} or {@code ERR} and its message)
 * @param push {@code true} for a message the server sent on its own, answering no request (a Redis pub/sub message),
 *        {@code false} for the reply to a request
 * @param endsAnswer {@code true} for the last message of the answer to its request (every reply of Redis and
 *        MongoDB, PostgreSQL's {@code ReadyForQuery}, MariaDB's last packet of a response) and for a push; {@code false}
 *        for a message that more of the same answer follows
 */
public record Exchange(int connection, String request, String reply, boolean push, boolean endsAnswer) {

    /**
     * A reply that is the whole of its answer, or a push.
     *
     * @param connection the proxied connection it travels on
     * @param request readable text of the request it answers
     * @param reply readable text of the reply
     * @param push whether the server sent it on its own
     */
    public Exchange(int connection, String request, String reply, boolean push) {
        this(connection, request, reply, push, true);
    }
}
