package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * A replica cut off from its primary that serves no stale data ({@code replica-serve-stale-data no}) answers
 * {@code MASTERDOWN} to every command, as a former primary that came back as a replica may after a failover. The lock
 * connection is then given up after each such answer, so that the next one asks again for the primary (through the
 * sentinels, in a real deployment), instead of failing every lock command on that connection for as long as it lives.
 */
class RedisMasterDownTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int REFUSALS = 3;

    @RegisterExtension
    final RedisLocks locks = new RedisLocks();

    @Test
    void aConnectionAnsweredMasterDownIsGivenUp() throws Exception {
        RedisLockStore store = locks.store();
        locks.closeAfterEach(store::close);
        assertThat(store.tryAcquire("before", "a", 60_000, false).await().atMost(TIMEOUT).acquired())
                .as("the lock connection is open, to a primary").isTrue();

        RedisServer server = locks.server();
        assertThat(server.send("REPLICAOF 127.0.0.1 " + unusedPort())).isEqualTo("+OK");
        assertThat(server.send("CONFIG SET replica-serve-stale-data no")).isEqualTo("+OK");
        long before = connectionsReceived(server);
        for (int i = 0; i < REFUSALS; i++) {
            String key = "refused-" + i;
            assertThatThrownBy(() -> store.tryAcquire(key, "b", 60_000, false).await().atMost(TIMEOUT))
                    .as("refused by the replica").isNotNull();
        }
        long opened = connectionsReceived(server) - before - 1;
        assertThat(opened).as("lock connections opened after the first refusal, one after each refusal but the last")
                .isGreaterThanOrEqualTo(REFUSALS - 1);
    }

    /** @return a loopback port nothing listens on, for a primary that is not there */
    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** @return how many connections the server accepted, this query's own included */
    private static long connectionsReceived(RedisServer server) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder(List.of("redis-cli", "-p", String.valueOf(server.port()), "INFO", "stats"))
                .redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cli.waitFor()).as(out).isZero();
        return out.lines().filter(line -> line.startsWith("total_connections_received:"))
                .mapToLong(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).strip())).findFirst()
                .orElseThrow();
    }
}
