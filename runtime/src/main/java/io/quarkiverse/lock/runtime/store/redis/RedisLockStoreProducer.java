package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.lock.runtime.config.LockRuntimeConfig;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Produces the Redis {@link LockStore} on the Quarkus Redis client named by {@code quarkus.lock.redis.client-name};
 * a bean only when the build chose the Redis store.
 * <p>
 * The clients are looked up through {@link Instance}: that tells the Redis extension to create every configured
 * client, so the name can be chosen in runtime configuration.
 */
@Singleton
public class RedisLockStoreProducer {

    @Inject
    @Any
    Instance<Redis> clients;

    /**
     * @param settings the validated settings
     * @param config the runtime configuration, for the Redis part
     * @param vertx the application's Vert.x
     * @return the store
     * @throws ConfigurationException if the named client is not configured
     */
    /**
     * @return the replica acknowledgement the configuration asks for
     * @throws ConfigurationException if the values are invalid, or replicas are asked for on a cluster client
     */
    static ReplicaAcknowledgement replicaAcknowledgement(LockRuntimeConfig.RedisLockConfig redis,
            LockSettings settings) {
        if (redis.waitReplicas() == 0) {
            return ReplicaAcknowledgement.NONE;
        }
        if (redis.waitReplicas() < 0) {
            throw new ConfigurationException("quarkus.lock.redis.wait-replicas must not be negative, but is "
                    + redis.waitReplicas());
        }
        Duration timeout = LockSettings.positive("quarkus.lock.redis.wait-timeout", redis.waitTimeout());
        if (timeout.compareTo(settings.operationTimeout()) >= 0) {
            throw new ConfigurationException("quarkus.lock.redis.wait-timeout (" + timeout + ") must be shorter than "
                    + "quarkus.lock.operation-timeout (" + settings.operationTimeout() + ")");
        }
        String clientType = "quarkus.redis" + redis.clientName().map(name -> "." + name).orElse("") + ".client-type";
        if ("cluster".equalsIgnoreCase(ConfigProvider.getConfig().getOptionalValue(clientType, String.class)
                .orElse("standalone"))) {
            throw new ConfigurationException("quarkus.lock.redis.wait-replicas is not supported with " + clientType
                    + "=cluster: the cluster client sends WAIT to a node of its choosing, not to the one that granted "
                    + "the lock");
        }
        return new ReplicaAcknowledgement(redis.waitReplicas(), timeout.toMillis());
    }

    @Produces
    @Singleton
    LockStore redisLockStore(LockSettings settings, LockRuntimeConfig config, Vertx vertx) {
        LockRuntimeConfig.RedisLockConfig redis = config.redis();
        long retention = LockSettings.positive("quarkus.lock.redis.fencing-retention", redis.fencingRetention())
                .toMillis();
        Instance<Redis> client = redis.clientName()
                .map(name -> clients.select(RedisClientName.Literal.of(name)))
                .orElseGet(() -> clients.select(Default.Literal.INSTANCE));
        if (!client.isResolvable()) {
            throw new ConfigurationException("quarkus.lock.redis.client-name names the Redis client '"
                    + redis.clientName().orElse("<default>") + "', but no such client is configured "
                    + "(set quarkus.redis" + redis.clientName().map(name -> "." + name).orElse("") + ".hosts)");
        }
        return new RedisLockStore(vertx, client.get(), settings.keyPrefix(), retention,
                redis.releaseNotifications(), replicaAcknowledgement(redis, settings));
    }
}
