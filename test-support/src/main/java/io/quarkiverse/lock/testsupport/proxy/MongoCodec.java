package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MongoDB framing and pairing: a message is an int32 little-endian length (itself included) and a header of
 * requestID, responseTo and op code; a reply answers the request whose requestID is its responseTo. A request with
 * the {@code moreToCome} flag expects no reply; a reply with it is followed by another answering it (exhaust cursors,
 * streaming hello), which is paired with the same request. A reply answering no known request is a push.
 */
final class MongoCodec implements WireCodec {

    private static final int HEADER = 16;
    private static final int OP_REPLY = 1;
    private static final int OP_QUERY = 2004;
    private static final int OP_COMPRESSED = 2012;
    private static final int OP_MSG = 2013;
    private static final int CHECKSUM_PRESENT = 1;
    private static final int MORE_TO_COME = 2;
    /** Whether {@code org.bson} is on the classpath, to read documents as JSON with {@link BsonText}. */
    private static final boolean BSON = isBsonAvailable();

    private final Map<Integer, String> pending = new ConcurrentHashMap<>();

    @Override
    public byte[] readRequest(FrameInput in) throws IOException {
        ByteBuffer message = read(in);
        if (message == null) {
            return null;
        }
        if (!moreToCome(message)) {
            pending.put(message.getInt(4), describe(message));
        }
        return in.takeFrame();
    }

    @Override
    public Reply readReply(FrameInput in) throws IOException {
        ByteBuffer message = read(in);
        if (message == null) {
            return null;
        }
        String request = pending.remove(message.getInt(8));
        if (request != null && moreToCome(message)) {
            pending.put(message.getInt(4), request);
        }
        return new Reply(in.takeFrame(), request, describe(message), request == null);
    }

    @Override
    public String requestText(byte[] request) {
        return describe(ByteBuffer.wrap(request).order(ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * Writes the replaced reply's requestID and responseTo into the replacement's header.
     */
    @Override
    public byte[] fit(byte[] replacement, Reply replaced) {
        byte[] fitted = replacement.clone();
        if (fitted.length >= HEADER && replaced.frame().length >= HEADER) {
            System.arraycopy(replaced.frame(), 4, fitted, 4, 8);
        }
        return fitted;
    }

    private static ByteBuffer read(FrameInput in) throws IOException {
        if (!in.awaitFrame()) {
            return null;
        }
        byte[] prefix = in.readBytes(4);
        int length = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (length < HEADER || length > FrameInput.MAX_FRAME) {
            throw new IOException("Not a MongoDB message: length " + length);
        }
        byte[] rest = in.readBytes(length - 4);
        ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        message.put(prefix).put(rest).flip();
        return message;
    }

    private static boolean moreToCome(ByteBuffer message) {
        return message.getInt(12) == OP_MSG && (message.getInt(HEADER) & MORE_TO_COME) != 0;
    }

    /**
     * @return the message's command or reply document as JSON if {@code org.bson} can read it, else its op code
     */
    static String describe(ByteBuffer message) {
        int opCode = message.getInt(12);
        String name = switch (opCode) {
            case OP_REPLY -> "OP_REPLY";
            case OP_QUERY -> "OP_QUERY";
            case OP_COMPRESSED -> "OP_COMPRESSED";
            case OP_MSG -> "OP_MSG";
            default -> "op code " + opCode;
        };
        int document = documentOffset(message, opCode);
        if (document < 0 || !BSON) {
            return name;
        }
        try {
            return BsonText.json(message.array(), document);
        } catch (RuntimeException unreadable) {
            return name;
        }
    }

    /**
     * @return where the message's main document starts (an OP_MSG's body section, an OP_QUERY's query, an OP_REPLY's
     *         first document), or -1 if it has none
     */
    private static int documentOffset(ByteBuffer message, int opCode) {
        int end = message.limit();
        switch (opCode) {
            case OP_MSG:
                if ((message.getInt(HEADER) & CHECKSUM_PRESENT) != 0) {
                    end -= 4;
                }
                int section = HEADER + 4;
                while (section < end) {
                    if (message.get(section) == 0) {
                        return section + 1;
                    }
                    section += 1 + message.getInt(section + 1);
                }
                return -1;
            case OP_QUERY:
                int name = HEADER + 4;
                while (name < end && message.get(name) != 0) {
                    name++;
                }
                return name + 9 < end ? name + 9 : -1;
            case OP_REPLY:
                return message.getInt(HEADER + 16) > 0 && HEADER + 20 < end ? HEADER + 20 : -1;
            default:
                return -1;
        }
    }

    private static boolean isBsonAvailable() {
        try {
            Class.forName("org.bson.RawBsonDocument", false, MongoCodec.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
