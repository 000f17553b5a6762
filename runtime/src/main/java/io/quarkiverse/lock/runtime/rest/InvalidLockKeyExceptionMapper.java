package io.quarkiverse.lock.runtime.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockRegistry;

/**
 * A lock key refused answers 400 Bad Request: a {@code @Locked} key is built from the request's values, and those
 * made it too long, blank, or left a part of it out. Logged at debug level: the client's mistake, not the service's.
 */
public class InvalidLockKeyExceptionMapper implements ExceptionMapper<InvalidLockKeyException> {

    private static final Logger LOG = Logger.getLogger(InvalidLockKeyExceptionMapper.class);

    /**
     * @param invalid the refused key
     * @return 400 with a body that names the lock
     */
    @Override
    public Response toResponse(InvalidLockKeyException invalid) {
        LOG.debugf("Answered 400 Bad Request: %s", invalid.getMessage());
        return LockResponses.plainText(Response.Status.BAD_REQUEST, "Invalid key for "
                + LockResponses.lock(invalid.getLockName()) + ": the request's values must make a key that is not "
                + "blank, leaves no part out, and is at most " + LockRegistry.MAX_KEY_LENGTH + " characters long.");
    }
}
