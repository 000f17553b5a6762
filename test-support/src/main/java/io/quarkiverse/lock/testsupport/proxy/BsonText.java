package io.quarkiverse.lock.testsupport.proxy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.bson.RawBsonDocument;

/**
 * Reads BSON documents as JSON with {@code org.bson}, an optional dependency: only used once {@code MongoCodec},
 * which does not need {@code org.bson} itself, found it on the classpath.
 */
final class BsonText {

    private BsonText() {
    }

    /**
     * @param bytes a buffer holding a BSON document
     * @param offset where the document starts
     * @return the document as relaxed extended JSON
     */
    static String json(byte[] bytes, int offset) {
        int length = ByteBuffer.wrap(bytes, offset, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return new RawBsonDocument(bytes, offset, length).toJson();
    }
}
