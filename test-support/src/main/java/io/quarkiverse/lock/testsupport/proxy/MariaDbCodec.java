package io.quarkiverse.lock.testsupport.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * MariaDB and MySQL framing and pairing (the client/server protocol): every packet is an int24 little-endian payload
 * length, a sequence number and the payload, a payload of {@code 0xFFFFFF} bytes continuing in the next packet. The
 * server speaks first: its greeting, the client's login and any authentication exchange up to the server's {@code OK}
 * or {@code ERR} are the request {@code startup}. Then each packet of the client with sequence number 0 is a command,
 * named by its SQL ({@code COM_QUERY}, {@code COM_STMT_PREPARE}, and {@code COM_STMT_EXECUTE} by the statement it
 * runs) or by its name; the server answers each command but {@code COM_QUIT}, {@code COM_STMT_SEND_LONG_DATA} and
 * {@code COM_STMT_CLOSE}, in order, with an {@code OK}, an {@code ERR}, a result set (column count, column
 * definitions, rows, each part ended by an {@code EOF} unless the client asked for {@code CLIENT_DEPRECATE_EOF}; several
 * while the status says more results follow; without column definitions where MariaDB's
 * {@code MARIADB_CLIENT_CACHE_METADATA} says the client has them) or a prepared statement's description. The client's
 * capabilities are read from its login; a login asking for TLS is refused, as the proxy cannot read it, and so is a
 * {@code LOCAL INFILE} exchange.
 */
final class MariaDbCodec implements WireCodec {

    /** The request text of a connection's start, as {@link PostgresCodec} names it. */
    static final String STARTUP = "startup";

    private static final int CONTINUED = 0xFFFFFF;
    private static final int CLIENT_SSL = 0x800;
    private static final int CLIENT_DEPRECATE_EOF = 1 << 24;
    private static final int SERVER_MORE_RESULTS_EXISTS = 0x0008;
    private static final int COM_QUIT = 0x01;
    private static final int COM_QUERY = 0x03;
    private static final int COM_PING = 0x0e;
    private static final int COM_STMT_PREPARE = 0x16;
    private static final int COM_STMT_EXECUTE = 0x17;
    private static final int COM_STMT_SEND_LONG_DATA = 0x18;
    private static final int COM_STMT_CLOSE = 0x19;
    private static final int OK = 0x00;
    private static final int GREETING = 0x0a;
    private static final int LOCAL_INFILE = 0xfb;
    private static final int EOF = 0xfe;
    private static final int ERR = 0xff;

    private final Queue<Request> pending = new ConcurrentLinkedQueue<>();
    /** SQL of the statements the server prepared, by statement id. */
    private final Map<Integer, String> prepared = new ConcurrentHashMap<>();
    /** Set by the server thread once the login succeeded, before the {@code OK} is forwarded. */
    private volatile boolean connected;
    /** Set by the client thread from its login, read by the server thread for the responses after it. */
    private volatile boolean deprecateEof;
    /** Whether the client's login was read; client thread only. */
    private boolean loggedIn;
    /** The SQL of the last statement the client asked to prepare; client thread only. */
    private String lastPrepared;
    /** The response being read; server thread only. */
    private final Response response = new Response();

    MariaDbCodec() {
        pending.add(new Request(Kind.STARTUP, STARTUP));
    }

    @Override
    public byte[] readRequest(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        byte[] payload = packet(in);
        if (!connected) {
            if (!loggedIn) {
                loggedIn = true;
                int capabilities = payload.length < 4 ? 0 : int32(payload, 0);
                if ((capabilities & CLIENT_SSL) != 0) {
                    throw new IOException("The proxy cannot read an encrypted MariaDB connection");
                }
                deprecateEof = (capabilities & CLIENT_DEPRECATE_EOF) != 0;
            }
            return in.takeFrame();
        }
        int command = payload.length == 0 ? -1 : payload[0] & 0xff;
        switch (command) {
            case COM_QUIT, COM_STMT_SEND_LONG_DATA, COM_STMT_CLOSE -> {
                // the server answers none of these
            }
            case COM_QUERY -> pending.add(new Request(Kind.RESULT, sql(payload)));
            case COM_STMT_PREPARE -> {
                lastPrepared = sql(payload);
                pending.add(new Request(Kind.PREPARE, lastPrepared));
            }
            case COM_STMT_EXECUTE -> pending.add(new Request(Kind.RESULT, executed(payload)));
            default -> pending.add(new Request(Kind.SINGLE, commandName(command)));
        }
        return in.takeFrame();
    }

    /**
     * @return the SQL of the statement a {@code COM_STMT_EXECUTE} runs: the statement id {@code -1} is the one
     *         prepared last, in the same pipeline
     */
    private String executed(byte[] payload) {
        String sql = payload.length < 5 ? null
                : int32(payload, 1) == -1 ? lastPrepared : prepared.get(int32(payload, 1));
        return sql == null ? "COM_STMT_EXECUTE" : sql;
    }

    @Override
    public Reply readReply(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        byte[] payload = packet(in);
        Request request = pending.peek();
        if (request == null) {
            return new Reply(in.takeFrame(), "?", describe(payload), false);
        }
        String text = response.text(request, payload);
        boolean ends = response.read(request, payload);
        if (ends) {
            pending.poll();
        }
        return new Reply(in.takeFrame(), request.text(), text, false, ends);
    }

    @Override
    public String requestText(byte[] request) {
        if (request.length < 5 || request[3] != 0) {
            return STARTUP;
        }
        int command = request[4] & 0xff;
        return command == COM_QUERY || command == COM_STMT_PREPARE
                ? new String(request, 5, request.length - 5, StandardCharsets.UTF_8)
                : commandName(command);
    }

    /** What the server answers a request with. */
    private enum Kind {
        /** The greeting, the authentication exchange, then {@code OK} or {@code ERR}. */
        STARTUP,
        /** {@code OK}, {@code ERR} or result sets. */
        RESULT,
        /** {@code OK} with the statement's description, or {@code ERR}. */
        PREPARE,
        /** One packet. */
        SINGLE
    }

    private record Request(Kind kind, String text) {
    }

    /** Where the server thread is in the response to the oldest pending request. */
    private final class Response {

        private boolean greeted;
        /** Column or parameter definitions (and their {@code EOF}s) still to come before the rows or the end. */
        private int definitions;
        /** Whether rows follow the definitions. */
        private boolean rows;
        /** Whether the response's first packet was read. */
        private boolean begun;

        /** @return the readable text of one packet of the response to {@code request} */
        String text(Request request, byte[] payload) {
            if (definitions > 0) {
                return "ColumnDefinition";
            }
            if (rows) {
                return isEnd(payload) ? "EOF" : header(payload) == ERR ? describe(payload) : "Row";
            }
            if (request.kind() == Kind.STARTUP && !greeted && header(payload) == GREETING) {
                return "Greeting";
            }
            if (request.kind() == Kind.RESULT && !begun && !isOkOrErr(payload)) {
                return "ColumnCount";
            }
            return describe(payload);
        }

        /** @return whether this packet ends the response to {@code request} */
        boolean read(Request request, byte[] payload) throws IOException {
            return switch (request.kind()) {
                case STARTUP -> startup(payload);
                case RESULT -> result(payload);
                case PREPARE -> prepare(request, payload);
                case SINGLE -> true;
            };
        }

        private boolean startup(byte[] payload) {
            int header = header(payload);
            if (!greeted && header == GREETING) {
                greeted = true;
                return false;
            }
            if (header == OK) {
                connected = true;
                return true;
            }
            return header == ERR;
        }

        private boolean result(byte[] payload) throws IOException {
            if (definitions > 0) {
                definitions--;
                return false;
            }
            int header = header(payload);
            if (rows) {
                if (header == ERR) {
                    return end();
                }
                if (!isEnd(payload)) {
                    return false;
                }
                rows = false;
                return moreResults(deprecateEof ? okStatus(payload) : eofStatus(payload)) ? continueWithNext() : end();
            }
            if (header == OK) {
                return moreResults(okStatus(payload)) ? continueWithNext() : end();
            }
            if (header == ERR) {
                return end();
            }
            if (header == LOCAL_INFILE) {
                throw new IOException("The proxy cannot read a MariaDB LOCAL INFILE exchange");
            }
            begun = true;
            int[] at = { 0 };
            long columns = lengthEncoded(payload, at);
            boolean metadataFollows = at[0] >= payload.length || payload[at[0]] != 0;
            definitions = metadataFollows ? (int) columns + (deprecateEof ? 0 : 1) : 0;
            rows = true;
            return false;
        }

        private boolean prepare(Request request, byte[] payload) {
            if (begun) {
                return --definitions == 0 && end();
            }
            if (header(payload) != OK || payload.length < 9) {
                return end();
            }
            prepared.put(int32(payload, 1), request.text());
            int columns = int16(payload, 5);
            int parameters = int16(payload, 7);
            int eofs = deprecateEof ? 0 : (columns > 0 ? 1 : 0) + (parameters > 0 ? 1 : 0);
            definitions = columns + parameters + eofs;
            begun = true;
            return definitions == 0 && end();
        }

        /** Another result set of the same response follows. */
        private boolean continueWithNext() {
            begun = false;
            return false;
        }

        private boolean end() {
            begun = false;
            rows = false;
            definitions = 0;
            return true;
        }

        /** @return whether a packet among rows ends them: an {@code EOF}, or the {@code OK} that replaces it */
        private boolean isEnd(byte[] payload) {
            return header(payload) == EOF && payload.length < CONTINUED && (deprecateEof || payload.length < 9);
        }
    }

    private static boolean isOkOrErr(byte[] payload) {
        int header = header(payload);
        return header == OK || header == ERR || header == LOCAL_INFILE;
    }

    private static boolean moreResults(int status) {
        return (status & SERVER_MORE_RESULTS_EXISTS) != 0;
    }

    /** @return the status flags of an {@code OK} packet (or of the {@code EOF}-headed {@code OK} ending rows) */
    private static int okStatus(byte[] payload) {
        int[] at = { 1 };
        lengthEncoded(payload, at);
        lengthEncoded(payload, at);
        return at[0] + 2 <= payload.length ? int16(payload, at[0]) : 0;
    }

    /** @return the status flags of a classic {@code EOF} packet */
    private static int eofStatus(byte[] payload) {
        return payload.length >= 5 ? int16(payload, 3) : 0;
    }

    private static String describe(byte[] payload) {
        return switch (header(payload)) {
            case OK -> "OK";
            case EOF -> "EOF";
            case ERR -> payload.length < 3 ? "ERR" : "ERR " + int16(payload, 1) + " " + errorMessage(payload);
            default -> "0x" + Integer.toHexString(header(payload));
        };
    }

    private static String errorMessage(byte[] payload) {
        int from = payload.length > 3 && payload[3] == '#' ? 9 : 3;
        return from >= payload.length ? "" : new String(payload, from, payload.length - from, StandardCharsets.UTF_8);
    }

    private static String commandName(int command) {
        return command == COM_PING ? "COM_PING" : "COM_0x" + Integer.toHexString(command);
    }

    private static String sql(byte[] payload) {
        return new String(payload, 1, payload.length - 1, StandardCharsets.UTF_8);
    }

    /** Reads one packet, and the packets continuing it, into the frame. */
    private static byte[] packet(FrameInput in) throws IOException {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int length;
        do {
            byte[] header = in.readBytes(4);
            length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
            payload.writeBytes(in.readBytes(length));
        } while (length == CONTINUED);
        return payload.toByteArray();
    }

    private static int header(byte[] payload) {
        return payload.length == 0 ? -1 : payload[0] & 0xff;
    }

    /** Reads a length-encoded integer at {@code at[0]} and moves {@code at[0]} past it. */
    private static long lengthEncoded(byte[] payload, int[] at) {
        if (at[0] >= payload.length) {
            return 0;
        }
        int first = payload[at[0]++] & 0xff;
        int size = switch (first) {
            case 0xfc -> 2;
            case 0xfd -> 3;
            case 0xfe -> 8;
            default -> 0;
        };
        if (size == 0) {
            return first;
        }
        long value = 0;
        for (int i = 0; i < size && at[0] < payload.length; i++) {
            value |= (long) (payload[at[0]++] & 0xff) << (8 * i);
        }
        return value;
    }

    private static int int16(byte[] bytes, int at) {
        return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8;
    }

    private static int int32(byte[] bytes, int at) {
        return int16(bytes, at) | int16(bytes, at + 2) << 16;
    }
}
