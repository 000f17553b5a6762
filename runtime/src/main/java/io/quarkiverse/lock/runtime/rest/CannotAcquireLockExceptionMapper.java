package io.quarkiverse.lock.runtime.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.CannotAcquireLockException;

/**
 * A lock not acquired within its wait answers 409 Conflict: the request conflicts with work another owner (most often
 * another instance) is doing under the same lock, and may succeed when repeated later. No {@code Retry-After}: when
 * the other owner will be done is not known. Logged at debug level, as a skipped {@code @Locked} call is.
 */
public class CannotAcquireLockExceptionMapper implements ExceptionMapper<CannotAcquireLockException> {

    private static final Logger LOG = Logger.getLogger(CannotAcquireLockExceptionMapper.class);

    /**
     * @param busy the lock not acquired
     * @return 409 with a body that names the lock
     */
    @Override
    public Response toResponse(CannotAcquireLockException busy) {
        LOG.debugf("Answered 409 Conflict: %s", busy.getMessage());
        return LockResponses.plainText(Response.Status.CONFLICT,
                "Busy: " + LockResponses.lock(busy.getLockName()) + " is held by another owner. Try again later.");
    }
}
