package io.quarkiverse.lock.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.lock.migration.MigrationReport;

/**
 * What the startup migration did.
 */
@Path("/migration")
public class MigrationResource {

    @Inject
    CounterMigration migration;

    /**
     * @return the report of this start's migration run
     */
    @GET
    public MigrationReport report() {
        return migration.report();
    }
}
