package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * Ending the server process of an abandoned statement ends only a session of the store's own login role: once that
 * process ended, the server may give its id to a session of another application, which a store connecting as a
 * superuser would otherwise end too. Such a session is not taken for gone either: it may be the statement's own,
 * logged in with other credentials.
 */
class BackendTerminationTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);
    private static final String BYSTANDER = "termination_bystander";

    private final Vertx vertx = Vertx.vertx();
    private final Pool storePool = pool(PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD);
    private final Pool otherPool = pool(BYSTANDER, BYSTANDER);
    private final Pool ownPool = pool(PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD);

    @BeforeAll
    static void createTheOtherRole() {
        PostgresServer.shared().sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + BYSTANDER
                + "') THEN CREATE ROLE " + BYSTANDER + " LOGIN PASSWORD '" + BYSTANDER + "'; END IF; END $$");
    }

    @AfterEach
    void close() {
        for (Pool pool : new Pool[] { storePool, otherPool, ownPool }) {
            pool.close().await().atMost(AWAIT);
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aSessionOfAnotherRoleWithTheIdIsLeftAlone() throws Exception {
        SqlConnection other = otherPool.getConnection().await().atMost(AWAIT);
        int pid = processId(other);

        assertThat(terminated(pid)).as("refused: the session with that id is another role's, which may be the "
                + "abandoned statement's own, logged in with other credentials, so it is not taken for gone").isFalse();
        assertThat(processId(other)).as("the other role's session still answers").isEqualTo(pid);
    }

    @Test
    void aSessionOfTheStoresRoleIsEnded() throws Exception {
        SqlConnection abandoned = ownPool.getConnection().await().atMost(AWAIT);
        int pid = processId(abandoned);

        assertThat(terminated(pid)).as("ended").isTrue();
        assertThatThrownBy(() -> processId(abandoned)).as("the ended session's connection").isNotNull();
    }

    /** @return what the store's termination of the process {@code pid} told: whether it is gone */
    private boolean terminated(int pid) throws Exception {
        BackendTermination.Termination termination = new BackendTermination(vertx, storePool, AWAIT)
                .termination(pid);
        termination.start();
        return termination.gone().get(AWAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private Pool pool(String user, String password) {
        return PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(PostgresServer.shared().url()).setUser(user)
                        .setPassword(password))
                .with(new PoolOptions().setMaxSize(2)).using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
    }

    private static int processId(SqlConnection connection) {
        return connection.query("SELECT pg_backend_pid()").execute().await().atMost(AWAIT).iterator().next()
                .getInteger(0);
    }
}
