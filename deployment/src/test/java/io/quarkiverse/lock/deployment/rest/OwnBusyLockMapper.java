package io.quarkiverse.lock.deployment.rest;

import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.quarkiverse.lock.CannotAcquireLockException;

/**
 * An application's own answer to a lock not acquired: 429 with a body of its own.
 */
public class OwnBusyLockMapper {

    /** The body of the application's answer. */
    static final String BODY = "the application's own answer";

    /**
     * @param busy the lock not acquired
     * @return 429
     */
    @ServerExceptionMapper
    public RestResponse<String> busy(CannotAcquireLockException busy) {
        return RestResponse.status(Response.Status.TOO_MANY_REQUESTS, BODY);
    }
}
