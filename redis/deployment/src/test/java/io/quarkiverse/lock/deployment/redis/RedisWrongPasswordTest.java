package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * A wrong password gives a clear error, fast, in readiness and on every operation, and never reaches a log.
 */
class RedisWrongPasswordTest {

    private static final String WRONG_PASSWORD = "wrong-pw-9b2e";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(root -> root.addClass(RedisAclUser.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.lock.operation-timeout", "2s")
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
            .overrideConfigKey("quarkus.redis.hosts", RedisAclUser.uri(
                    RedisServer.ownedBy(RedisWrongPasswordTest.class, RedisAclUser.SERVER_SETTINGS).port(),
                    WRONG_PASSWORD))
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.FINE.intValue())
            .assertLogRecords(records -> assertThat(records)
                    .noneMatch(record -> String.valueOf(record.getMessage()).contains(WRONG_PASSWORD)
                            || String.valueOf(record.getThrown()).contains(WRONG_PASSWORD)
                            || java.util.Arrays.toString(record.getParameters()).contains(WRONG_PASSWORD)));

    @Inject
    LockRegistry locks;

    @Inject
    @Readiness
    AsyncHealthCheck readiness;

    @Test
    void readinessIsDownAndOperationsFailNamingTheAuthenticationError() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> locks.obtain("auth-order-1").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("auth-order-1")
                .satisfies(failure -> assertThat(failure.getMessage()).containsAnyOf("WRONGPASS", "NOAUTH",
                        "invalid username-password"))
                .satisfies(failure -> assertThat(failure.getMessage()).doesNotContain(WRONG_PASSWORD));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

        HealthCheckResponse health = readiness.call().await().atMost(TIMEOUT);
        assertThat(health.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(health.getData()).hasValueSatisfying(data -> assertThat(String.valueOf(data.get("error")))
                .containsAnyOf("WRONGPASS", "NOAUTH", "invalid username-password")
                .doesNotContain(WRONG_PASSWORD));
    }
}
