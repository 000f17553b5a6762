package io.quarkiverse.lock.runtime.store.redis;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.arc.ActiveResult;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Produces the Redis {@link LockStore} on the Quarkus Redis client named by {@code quarkus.lock.redis.client-name};
 * a bean only when the build chose the Redis store, whose build step also asks the Redis extension to create that
 * client.
 * <p>
 * The client is looked up by its name when the store is made, not through an {@code Instance} injection point: such an
 * injection point would make the Redis extension create every configured client.
 */
@Singleton
public class RedisLockStoreProducer {

    /** The default of {@code quarkus.redis.max-pool-size}. */
    private static final int DEFAULT_MAX_POOL_SIZE = 6;

    /**
     * @param settings the validated settings
     * @param redis the store's runtime configuration
     * @param client the store's client configuration
     * @param vertx the application's Vert.x
     * @return the store
     * @throws ConfigurationException if the named client is not configured, or a value is invalid
     */
    @Produces
    @Singleton
    LockStore redisLockStore(LockSettings settings, RedisLockRuntimeConfig redis, RedisLockBuildTimeConfig client,
            Vertx vertx) {
        return new RedisLockStore(vertx, client(client.clientName()), new RedisLockStoreSettings(
                keyPrefix(settings.keyPrefix()),
                LockSettings.positive("quarkus.lock.redis.fencing-retention", redis.fencingRetention()),
                redis.releaseNotifications(), replicaAcknowledgement(redis, client.clientName(), settings),
                connections(redis, client.clientName())));
    }

    /**
     * @param redis the store's runtime configuration
     * @param clientName the client's name, empty for the default client
     * @return the number of lock connections
     * @throws ConfigurationException if it is below 1, or the client's pool cannot hold them and the release
     *         subscription: each is taken from the pool for good, and keys whose connection never opened would fail
     *         every operation while the others work
     */
    static int connections(RedisLockRuntimeConfig redis, Optional<String> clientName) {
        int connections = redis.connections();
        if (connections < 1) {
            throw new ConfigurationException("quarkus.lock.redis.connections must be at least 1, got " + connections);
        }
        if (isCluster(clientName)) {
            return connections;
        }
        int needed = connections + (redis.releaseNotifications() ? 1 : 0);
        String maxPoolSize = clientProperty(clientName, "max-pool-size");
        int pool = ConfigProvider.getConfig().getOptionalValue(maxPoolSize, Integer.class)
                .orElse(DEFAULT_MAX_POOL_SIZE);
        if (pool < needed) {
            throw new ConfigurationException("The Redis lock store holds " + needed + " connections of the client's "
                    + "pool for good (quarkus.lock.redis.connections=" + connections
                    + (redis.releaseNotifications() ? ", and one for release notifications" : "") + "), but "
                    + maxPoolSize + " is " + pool + ": raise it by at least " + (needed - pool)
                    + ", besides what the application uses, or lower quarkus.lock.redis.connections");
        }
        return connections;
    }

    /**
     * @param prefix the configured key prefix
     * @return the prefix
     * @throws ConfigurationException if it contains '{' or '}', which Redis Cluster reads as a hash tag: the store
     *         puts the lock key in the tag, so that a lock's keys share one slot
     */
    static String keyPrefix(String prefix) {
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new ConfigurationException("quarkus.lock.key-prefix must not contain '{' or '}' with the Redis "
                    + "store (Redis Cluster reads them as a hash tag), but is '" + prefix + "'");
        }
        return prefix;
    }

    /**
     * @param name the client's name, empty for the default client
     * @return the client
     * @throws ConfigurationException if that client is not configured (the Redis extension deactivates a client that
     *         has no hosts)
     */
    static Redis client(Optional<String> name) {
        Annotation qualifier = name.<Annotation> map(RedisClientName.Literal::of).orElse(Default.Literal.INSTANCE);
        InjectableInstance<Redis> client = Arc.container().select(Redis.class, qualifier);
        ActiveResult active = client.isResolvable() ? client.getHandle().getBean().checkActive()
                : ActiveResult.inactive("the Redis extension did not create it");
        if (!active.value()) {
            throw new ConfigurationException("quarkus.lock.redis.client-name names the Redis client '"
                    + name.orElse("<default>") + "', but no such client is configured (set "
                    + clientProperty(name, "hosts") + "): " + active.inactiveReason());
        }
        return client.get();
    }

    /**
     * @param redis the store's runtime configuration
     * @param clientName the client's name, empty for the default client
     * @param settings the validated settings
     * @return the replica acknowledgement the configuration asks for
     * @throws ConfigurationException if the values are invalid, or replicas are asked for on a cluster client
     */
    static ReplicaAcknowledgement replicaAcknowledgement(RedisLockRuntimeConfig redis, Optional<String> clientName,
            LockSettings settings) {
        ReplicaTimeout replicaTimeout = ReplicaTimeout.from(redis);
        if (redis.waitReplicas() == 0) {
            return ReplicaAcknowledgement.NONE;
        }
        if (redis.waitReplicas() < 0) {
            throw new ConfigurationException("quarkus.lock.redis.wait-replicas must not be negative, but is "
                    + redis.waitReplicas());
        }
        Duration timeout = LockSettings.positive(replicaTimeout.property(), replicaTimeout.value());
        if (timeout.compareTo(settings.operationTimeout()) >= 0) {
            throw new ConfigurationException(replicaTimeout.property() + " (" + timeout + ") must be shorter than "
                    + "quarkus.lock.operation-timeout (" + settings.operationTimeout() + ")");
        }
        if (isCluster(clientName)) {
            throw new ConfigurationException("quarkus.lock.redis.wait-replicas is not supported with "
                    + clientProperty(clientName, "client-type")
                    + "=cluster: the cluster client sends WAIT to a node of its choosing, not to the one that granted "
                    + "the lock");
        }
        return new ReplicaAcknowledgement(redis.waitReplicas(), timeout.toMillis());
    }

    /** @return whether the client is configured as a Redis Cluster client */
    private static boolean isCluster(Optional<String> clientName) {
        return "cluster".equalsIgnoreCase(ConfigProvider.getConfig()
                .getOptionalValue(clientProperty(clientName, "client-type"), String.class).orElse("standalone"));
    }

    /**
     * @param clientName the client's name, empty for the default client
     * @param property the property of the Redis extension's client configuration, such as {@code max-pool-size}
     * @return the property's name for that client: {@code quarkus.redis.<property>} for the default client,
     *         {@code quarkus.redis.<name>.<property>}, or {@code quarkus.redis."<name>".<property>} for a name that
     *         holds a dot, which configuration reads only quoted
     */
    static String clientProperty(Optional<String> clientName, String property) {
        return "quarkus.redis" + clientName.map(name -> name.indexOf('.') >= 0 ? ".\"" + name + "\"" : "." + name)
                .orElse("") + "." + property;
    }
}
