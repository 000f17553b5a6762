package io.quarkiverse.lock.it.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.it.LockedResource;
import io.quarkiverse.lock.testing.LockRegistryStub;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@link LockRegistryStub} in a {@code @QuarkusTest}, installed in place of the registry the way a user would: the
 * application's {@code @Locked} endpoint then answers as the stub says, and the stub counts the calls.
 * <p>
 * It has no {@code @QuarkusIntegrationTest} subclass: a mock replaces a bean of the application running in the test's
 * JVM, and a packaged application runs in a process of its own.
 */
@QuarkusTest
class LockRegistryStubInQuarkusTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Inject
    LockedResource locked;

    @Test
    void aLockHeldElsewhereStopsTheLockedMethodBeforeItRuns() {
        LockRegistryStub locks = LockRegistryStub.alwaysHeld();
        QuarkusMock.installMockForType(locks, LockRegistry.class);
        String counter = UUID.randomUUID().toString();

        assertThatThrownBy(() -> locked.uni(counter).await().atMost(TIMEOUT))
                .isInstanceOf(CannotAcquireLockException.class).hasMessageContaining("uni-" + counter);
        assertThat(locked.value(counter).await().atMost(TIMEOUT)).isZero();
        assertThat(locks.wasAcquireRejected()).isTrue();
        assertThat(locks.wasReleaseInvoked()).isFalse();
    }

    @Test
    void aFreeLockLetsTheLockedMethodRunAndReleasesIt() {
        LockRegistryStub locks = LockRegistryStub.alwaysFree();
        QuarkusMock.installMockForType(locks, LockRegistry.class);
        String counter = UUID.randomUUID().toString();

        assertThat(locked.uni(counter).await().atMost(TIMEOUT)).isEqualTo(1L);
        assertThat(locked.uni(counter).await().atMost(TIMEOUT)).isEqualTo(2L);
        assertThat(locks.acquired()).isEqualTo(2);
        assertThat(locks.wasAcquiredAndReleased()).isTrue();
    }
}
