package io.quarkiverse.lock.runtime.health;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * Readiness: whether the lock store answers. Active when SmallRye Health is present and
 * {@code quarkus.lock.health.enabled} is true. Reports the store, and the error when it does not answer within five
 * seconds.
 */
@Readiness
@ApplicationScoped
public class LockStoreHealthCheck implements AsyncHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Inject
    LockStore store;

    @Override
    public Uni<HealthCheckResponse> call() {
        return store.ping()
                .ifNoItem().after(TIMEOUT).failWith(() -> new IllegalStateException("no answer within " + TIMEOUT))
                .map(ignored -> HealthCheckResponse.named("Quarkus Lock store").up()
                        .withData("store", store.name()).build())
                .onFailure().recoverWithItem(failure -> HealthCheckResponse.named("Quarkus Lock store").down()
                        .withData("store", store.name())
                        .withData("error", String.valueOf(failure.getMessage())).build());
    }
}
