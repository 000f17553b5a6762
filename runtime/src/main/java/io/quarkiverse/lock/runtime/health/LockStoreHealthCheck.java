package io.quarkiverse.lock.runtime.health;

import java.time.Duration;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * Readiness: whether the lock store answers. Active when SmallRye Health is present and
 * {@code quarkus.lock.health.enabled} is true. Reports the store, the error when it does not answer within five
 * seconds, and for each leadership group this instance takes part in, {@code leadership.<group>}: {@code leads, term
 * <n>} or {@code follows}. An instance that takes part in a group but cannot reach the store is not ready.
 */
@Readiness
@ApplicationScoped
public class LockStoreHealthCheck implements AsyncHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Inject
    LockStore store;

    @Inject
    Leadership leadership;

    @Override
    public Uni<HealthCheckResponse> call() {
        return store.ping()
                .ifNoItem().after(TIMEOUT).failWith(() -> new IllegalStateException("no answer within " + TIMEOUT))
                .map(ignored -> response().up().build())
                .onFailure().recoverWithItem(failure -> response().down()
                        .withData("error", String.valueOf(failure.getMessage())).build());
    }

    private HealthCheckResponseBuilder response() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Quarkus Lock store")
                .withData("store", store.name());
        for (LeadershipGroup group : leadership.groups()) {
            if (group.isJoined()) {
                OptionalLong term = group.term();
                response.withData("leadership." + group.name(),
                        term.isPresent() ? "leads, term " + term.getAsLong() : "follows");
            }
        }
        return response;
    }
}
