package io.quarkiverse.lock.runtime.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockException;

/**
 * A lock store failure answers 503 Service Unavailable: the request is fine, but the service cannot lock what it needs
 * right now. No {@code Retry-After}: how long the store stays unreachable is not known. Logged as a warning of one
 * line, with the store's error but without the stack trace (the registry counts the failure in its metrics).
 */
public class LockExceptionMapper implements ExceptionMapper<LockException> {

    private static final Logger LOG = Logger.getLogger(LockExceptionMapper.class);

    /**
     * @param failure the store failure
     * @return 503 with a body that names the lock
     */
    @Override
    public Response toResponse(LockException failure) {
        LOG.warnf("Answered 503 Service Unavailable: %s", LockResponses.oneLine(failure.getMessage()));
        return LockResponses.plainText(Response.Status.SERVICE_UNAVAILABLE, "Unavailable: the store of "
                + LockResponses.lock(failure.getLockName()) + " failed. Try again later.");
    }
}
