package io.quarkiverse.lock.runtime.rest;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The answers of the lock exception mappers: a status and a short plain-text body that names the lock by its name,
 * never by its key, which may hold a request's values.
 */
final class LockResponses {

    private LockResponses() {
    }

    /**
     * @param status the status
     * @param body the body
     * @return the answer
     */
    static Response plainText(Response.Status status, String body) {
        return Response.status(status).type(MediaType.TEXT_PLAIN_TYPE).entity(body).build();
    }

    /**
     * @param lockName a lock's name, or {@code null} if not known
     * @return how a body names the lock: {@code "lock 'name'"}, or {@code "the lock"} without a name
     */
    static String lock(String lockName) {
        return lockName == null ? "the lock" : "lock '" + lockName + "'";
    }

    /**
     * @param message an exception's message
     * @return it on one line, so that a log record is one line even when a store client's message is not
     */
    static String oneLine(String message) {
        return message == null ? "" : message.replace('\n', ' ').replace('\r', ' ');
    }
}
