package io.quarkiverse.lock.deployment;

import jakarta.ws.rs.Priorities;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockException;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.resteasy.reactive.spi.ExceptionMapperBuildItem;

/**
 * Build steps for applications with {@code quarkus-rest}: the lock exceptions answer 409, 503 and 400 instead of 500
 * ({@code io.quarkiverse.lock.runtime.rest}), unless {@code quarkus.lock.rest.exception-mappers.enabled} is false.
 */
class LockRestProcessor {

    /** By name: the mappers implement JAX-RS types, which are present only with a REST extension. */
    private static final String MAPPERS = "io.quarkiverse.lock.runtime.rest.";
    /**
     * After an application's mappers, whose default priority is {@link Priorities#USER} (the lower value wins), with
     * room for those that lower their own precedence a little, as the Jackson extension's default mappers do.
     */
    private static final int PRIORITY = Priorities.USER + 100;

    @BuildStep
    void exceptionMappers(LockBuildTimeConfig config, Capabilities capabilities,
            BuildProducer<ExceptionMapperBuildItem> mappers) {
        if (!config.restExceptionMappersEnabled() || capabilities.isMissing(Capability.REST)) {
            return;
        }
        mappers.produce(mapper("CannotAcquireLockExceptionMapper", CannotAcquireLockException.class));
        mappers.produce(mapper("LockExceptionMapper", LockException.class));
        mappers.produce(mapper("InvalidLockKeyExceptionMapper", InvalidLockKeyException.class));
    }

    private static ExceptionMapperBuildItem mapper(String simpleName, Class<? extends Exception> handled) {
        return new ExceptionMapperBuildItem(MAPPERS + simpleName, handled.getName(), PRIORITY, false);
    }
}
