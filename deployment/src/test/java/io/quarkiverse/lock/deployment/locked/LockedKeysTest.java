package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * How {@code @Locked} names its lock (default key, {@code @LockKey} parameters, templates), reads durations from
 * configuration, and rejects a nested call on a key its caller holds.
 */
class LockedKeysTest {

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String MONTHLY = "report/{tenant}/{year}-{month}";

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(Reports.class, Nested.class)
            .overrideConfigKey("app.lock.report-wait", "0s");

    @Inject
    LockRegistry registry;

    @Inject
    Reports reports;

    @Inject
    Nested nested;

    @Test
    void theDefaultKeyIsTheClassAndMethodName() {
        String key = Reports.class.getName() + ".daily";
        assertThat(registry.obtain(key).acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThatThrownBy(() -> reports.daily().await().atMost(TIMEOUT))
                .isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining("'" + key + "'");
    }

    @Test
    void lockKeyParametersFollowTheMethodNameInOrder() {
        String key = Reports.class.getName() + ".forTenant:acme:42";
        assertThat(registry.obtain(key).acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThatThrownBy(() -> reports.forTenant("acme", "ignored", 42).await().atMost(TIMEOUT))
                .isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining("'" + key + "'");
        assertThat(reports.forTenant("acme", "ignored", 43).await().atMost(TIMEOUT)).isEqualTo("acme-43");
    }

    @Test
    void aTemplateCanUseSeveralParametersAndLiterals() {
        String key = "report/acme/2026-11";
        assertThat(registry.obtain(key).acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThatThrownBy(() -> reports.monthly(11, "acme", 2026).await().atMost(TIMEOUT))
                .isInstanceOfSatisfying(CannotAcquireLockException.class, busy -> assertThat(busy.getLockName())
                        .as("the lock's name is its template").isEqualTo(MONTHLY))
                .hasMessageContaining("'" + key + "'");
    }

    @Test
    void aNullArgumentInTheKeyFailsNamingTheMethod() {
        assertThatThrownBy(() -> reports.monthly(11, null, 2026))
                .isInstanceOfSatisfying(InvalidLockKeyException.class, invalid -> assertThat(invalid.getLockName())
                        .as("the lock's name is its template").isEqualTo(MONTHLY))
                .hasMessageContaining("monthly")
                .hasMessageContaining("null");
    }

    @Test
    void aKeyTooLongFailsNamingTheTemplate() {
        String tenant = "t".repeat(LockRegistry.MAX_KEY_LENGTH);
        assertThatThrownBy(() -> reports.monthly(11, tenant, 2026).await().atMost(TIMEOUT))
                .isInstanceOfSatisfying(InvalidLockKeyException.class, invalid -> assertThat(invalid.getLockName())
                        .as("the lock's name is its template").isEqualTo(MONTHLY))
                .hasMessageContaining("at most " + LockRegistry.MAX_KEY_LENGTH)
                .hasMessageContaining("monthly")
                .hasMessageContaining("'" + MONTHLY + "'");
    }

    @Test
    void aNestedCallOnTheHeldKeyFailsInsteadOfWaitingForItself() {
        assertThatThrownBy(() -> nested.outerReactive("n1").await().atMost(TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not reentrant")
                .hasMessageContaining("'nested-n1'");
        assertThatThrownBy(() -> nested.outerBlocking("n2"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not reentrant");
        assertThat(registry.obtain("nested-n1").acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(registry.obtain("nested-n2").acquireOnce().await().atMost(TIMEOUT)).isTrue();
    }

    @Test
    void aNestedCallOnAnotherKeyRuns() {
        assertThat(nested.outerOtherKey("n3").await().atMost(TIMEOUT)).isEqualTo("inner-n3");
    }

    @Test
    void durationsCanComeFromConfiguration() {
        String key = Reports.class.getName() + ".configured";
        assertThat(registry.obtain(key).acquireOnce().await().atMost(TIMEOUT)).isTrue();
        long start = System.nanoTime();

        assertThatThrownBy(() -> reports.configured().await().atMost(TIMEOUT))
                .isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining("PT0S");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @ApplicationScoped
    static class Reports {

        @Locked(waitTime = "0s")
        Uni<String> daily() {
            return Uni.createFrom().item("daily");
        }

        @Locked(waitTime = "0s")
        Uni<String> forTenant(@LockKey String tenant, String comment, @LockKey int order) {
            return Uni.createFrom().item(tenant + "-" + order);
        }

        @Locked(key = MONTHLY, waitTime = "0s")
        Uni<String> monthly(int month, String tenant, int year) {
            return Uni.createFrom().item(tenant);
        }

        @Locked(waitTime = "${app.lock.report-wait}", expireAfter = "${app.lock.report-lease:20s}")
        Uni<String> configured() {
            return Uni.createFrom().item("configured");
        }
    }

    @ApplicationScoped
    static class Nested {

        @Inject
        Nested self;

        @Locked(key = "nested-{id}", waitTime = "5s")
        Uni<String> outerReactive(String id) {
            return self.innerReactive(id);
        }

        @Locked(key = "nested-{id}", waitTime = "5s")
        Uni<String> innerReactive(String id) {
            return Uni.createFrom().item("inner-" + id);
        }

        @Locked(key = "nested-{id}", waitTime = "5s")
        String outerBlocking(String id) {
            return self.innerBlocking(id);
        }

        @Locked(key = "nested-{id}", waitTime = "5s")
        String innerBlocking(String id) {
            return "inner-" + id;
        }

        @Locked(key = "outer-{id}", waitTime = "5s")
        Uni<String> outerOtherKey(String id) {
            return self.innerReactive(id);
        }
    }
}
