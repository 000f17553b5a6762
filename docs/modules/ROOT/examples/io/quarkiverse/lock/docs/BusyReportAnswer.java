package io.quarkiverse.lock.docs;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import io.quarkiverse.lock.CannotAcquireLockException;

/**
 * An application's own answer to a busy lock, which replaces the extension's 409.
 */
// tag::mapper[]
@Provider
public class BusyReportAnswer implements ExceptionMapper<CannotAcquireLockException> {

    @Override
    public Response toResponse(CannotAcquireLockException busy) {
        // here the only locked work is building reports: a busy lock means the report is being built elsewhere
        return Response.accepted("The report is being built (" + busy.getLockName() + "): fetch it shortly").build();
    }
}
// end::mapper[]
