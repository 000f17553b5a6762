package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;

/**
 * The blocking view returns on a Vert.x worker context, although results are delivered on the context the operation
 * started on: a delivery queued behind the blocked task itself would never run.
 */
class BlockingViewOnWorkerContextTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @Test
    void aBlockingAcquisitionOnAWorkerVerticleReturns() throws Exception {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(1));
        String key = "worker-" + UUID.randomUUID();
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        redis.vertx().deployVerticle(new AbstractVerticle() {
            @Override
            public void start() {
                try {
                    acquired.complete(registry.obtain(key).withLeaseRenewal(true).toBlocking()
                            .acquire(Duration.ZERO, Duration.ofSeconds(2)));
                } catch (Throwable t) {
                    acquired.completeExceptionally(t);
                }
            }
        }, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER));
        Boolean result = null;
        String seen = "returned";
        try {
            result = acquired.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            seen = "no result after 10 s; " + redis.keyInRedis(key);
        }
        assertThat(result).as("blocking acquire(0, lease 2 s) on a worker context: %s", seen).isTrue();
    }
}
