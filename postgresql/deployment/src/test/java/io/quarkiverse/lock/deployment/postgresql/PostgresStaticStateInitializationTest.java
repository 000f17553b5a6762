package io.quarkiverse.lock.deployment.postgresql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.StaticStateAudit;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every class of the PostgreSQL store whose static state holds randomness, threads, sockets, clock readings or
 * connections is registered for run-time initialization, so a native image can be built and does not ship the
 * build's values.
 */
class PostgresStaticStateInitializationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "static_state")
            .addBuildChainCustomizer(StaticStateAudit.of(PostgresLockStore.class));

    @Test
    void classesWithRandomnessThreadsSocketsClocksOrConnectionsInStaticStateAreInitializedAtRunTime() {
        StaticStateAudit.assertInitializedAtRunTime(PostgresLockStore.class);
    }
}
