package io.quarkiverse.lock.it;

import jakarta.ws.rs.core.Response.Status;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.quarkiverse.lock.CannotAcquireLockException;

/**
 * A lock not acquired within its wait answers 409 with the exception's message, which names the key.
 */
public class BusyLockMapper {

    /**
     * @param busy the failure
     * @return 409 with its message
     */
    @ServerExceptionMapper
    public RestResponse<String> busy(CannotAcquireLockException busy) {
        return RestResponse.status(Status.CONFLICT, busy.getMessage());
    }
}
