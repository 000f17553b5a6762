package io.quarkiverse.lock.runtime.store.mongodb;

/**
 * A write error, or a write concern error, that MongoDB reported inside an otherwise successful reply.
 */
final class MongoWriteFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final boolean concern;

    private MongoWriteFailure(int code, String message, boolean concern) {
        super("MongoDB error " + code + ": " + message);
        this.code = code;
        this.concern = concern;
    }

    /** A write that was refused. */
    static MongoWriteFailure writeError(int code, String message) {
        return new MongoWriteFailure(code, message, false);
    }

    /** A write that was applied on the primary, but not acknowledged as the write concern asks. */
    static MongoWriteFailure concernError(int code, String message) {
        return new MongoWriteFailure(code, "write concern not satisfied (the write was applied on the primary): "
                + message, true);
    }

    int code() {
        return code;
    }

    /** {@code true} if the write was applied and only its acknowledgement failed. */
    boolean concern() {
        return concern;
    }
}
