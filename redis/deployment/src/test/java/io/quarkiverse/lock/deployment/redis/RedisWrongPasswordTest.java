package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkiverse.lock.testsupport.WrongPasswordApp;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A wrong password gives a clear error, fast, in readiness and on every operation, and never reaches a log.
 */
class RedisWrongPasswordTest {

    private static final String WRONG_PASSWORD = "wrong-pw-9b2e";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = WrongPasswordApp.of(RedisAclUser.app(RedisWrongPasswordTest.class,
            WRONG_PASSWORD), WRONG_PASSWORD);

    @Inject
    LockRegistry locks;

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

        assertThat(StoreReadiness.assertDown("redis"))
                .containsAnyOf("WRONGPASS", "NOAUTH", "invalid username-password")
                .doesNotContain(WRONG_PASSWORD);
    }
}
