package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * PostgreSQL framing and pairing (protocol 3): the client's first messages have no type byte (the startup packet, or
 * an SSL or GSS request, answered by one byte), every later message is a type byte and an int32 big-endian length
 * (itself included). A request is what one {@code ReadyForQuery} answers: the startup, a simple {@code Query}, or the
 * extended messages up to a {@code Sync}, named by the SQL they parse or bind (a statement parsed earlier on the
 * connection is remembered by name). Every server message up to and including that {@code ReadyForQuery} answers
 * it; notifications ({@code A}) are pushes.
 */
final class PostgresCodec implements WireCodec {

    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;
    private static final int CANCEL_REQUEST = 80877102;

    private final Queue<String> pending = new ConcurrentLinkedQueue<>();
    private final Map<String, String> prepared = new ConcurrentHashMap<>();
    /** Single-byte answers the server owes to SSL and GSS requests. */
    private final Queue<String> negotiations = new ConcurrentLinkedQueue<>();
    private volatile boolean started;
    /** The extended-protocol request being built, read by the client thread only. */
    private String current;

    @Override
    public byte[] readRequest(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        if (!started) {
            int length = ByteBuffer.wrap(in.readBytes(4)).getInt();
            if (length < 8 || length > FrameInput.MAX_FRAME) {
                throw new IOException("Not a PostgreSQL startup message: length " + length);
            }
            ByteBuffer body = ByteBuffer.wrap(in.readBytes(length - 4));
            int code = body.getInt(0);
            if (code == SSL_REQUEST || code == GSS_REQUEST) {
                negotiations.add(code == SSL_REQUEST ? "SSLRequest" : "GSSENCRequest");
            } else if (code != CANCEL_REQUEST) {
                started = true;
                pending.add("startup");
            }
            return in.takeFrame();
        }
        char type = (char) in.read();
        byte[] body = body(in);
        switch (type) {
            case 'Q' -> pending.add(cString(body, 0));
            case 'P' -> {
                String name = cString(body, 0);
                String sql = cString(body, name.getBytes(StandardCharsets.UTF_8).length + 1);
                prepared.put(name, sql);
                current = sql;
            }
            case 'B' -> {
                String portal = cString(body, 0);
                String statement = cString(body, portal.getBytes(StandardCharsets.UTF_8).length + 1);
                current = prepared.getOrDefault(statement, current);
            }
            case 'S' -> {
                pending.add(current == null ? "?" : current);
                current = null;
            }
            default -> {
                // Describe, Execute, Close, Flush, password and Terminate messages add nothing to pair
            }
        }
        return in.takeFrame();
    }

    @Override
    public Reply readReply(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        String negotiation = negotiations.poll();
        if (negotiation != null) {
            int answer = in.read();
            if (answer == 'S' || answer == 'G') {
                throw new IOException("The proxy cannot read an encrypted PostgreSQL connection");
            }
            return new Reply(in.takeFrame(), negotiation, String.valueOf((char) answer), false);
        }
        char type = (char) in.read();
        byte[] body = body(in);
        if (type == 'A') {
            return new Reply(in.takeFrame(), null, "Notification", true);
        }
        String request = type == 'Z' ? pending.poll() : pending.peek();
        return new Reply(in.takeFrame(), request == null ? "?" : request, describe(type, body), false, type == 'Z');
    }

    private static byte[] body(FrameInput in) throws IOException {
        int length = ByteBuffer.wrap(in.readBytes(4)).getInt();
        if (length < 4 || length > FrameInput.MAX_FRAME) {
            throw new IOException("Not a PostgreSQL message: length " + length);
        }
        return in.readBytes(length - 4);
    }

    private static String describe(char type, byte[] body) {
        return switch (type) {
            case 'Z' -> "ReadyForQuery";
            case 'C' -> "CommandComplete " + cString(body, 0);
            case 'D' -> "DataRow";
            case 'T' -> "RowDescription";
            case 'E' -> "ErrorResponse " + field(body, 'M');
            case 'N' -> "NoticeResponse " + field(body, 'M');
            case 'R' -> "Authentication";
            case 'S' -> "ParameterStatus";
            case 'K' -> "BackendKeyData";
            case '1' -> "ParseComplete";
            case '2' -> "BindComplete";
            default -> String.valueOf(type);
        };
    }

    /** @return the value of one field of an error or notice ({@code M}: the message), or an empty string */
    private static String field(byte[] body, char code) {
        int at = 0;
        while (at < body.length && body[at] != 0) {
            String value = cString(body, at + 1);
            if (body[at] == code) {
                return value;
            }
            at += 2 + value.getBytes(StandardCharsets.UTF_8).length;
        }
        return "";
    }

    private static String cString(byte[] bytes, int from) {
        int end = from;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, Math.min(from, bytes.length), Math.max(0, end - from), StandardCharsets.UTF_8);
    }
}
