package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.HeardReleases;
import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.impl.types.BulkType;
import io.vertx.redis.client.impl.types.SimpleStringType;

/**
 * The messages of the release channel reach the listener intact, whatever the lock's name holds.
 */
class ReleaseMessagesTest {

    private final HeardReleases listener = new HeardReleases();
    private final List<String> events = listener.events();

    @Test
    void aPlainReleaseNamesTheLock() {
        RedisReleaseWatch.dispatch("R order-1", listener, false);
        RedisReleaseWatch.dispatch("R with spaces and\nnewlines {}", listener, false);

        assertThat(events).containsExactly("released[order-1]", "released[with spaces and\nnewlines {}]");
    }

    @Test
    void aHandOverNamesTheLockTheNewOwnerAndItsToken() {
        RedisReleaseWatch.dispatch("G Zm9vYmFyYmF6cXV4cXV1eA 1795979991245226 order 1 G x", listener, false);

        assertThat(events).containsExactly("handedOver[order 1 G x|Zm9vYmFyYmF6cXV4cXV1eA|1795979991245226]");
    }

    @Test
    void whenReplicasMustAcknowledgeAHandOverOnlyWakesTheWaiterSoItAsksTheStore() {
        RedisReleaseWatch.dispatch("G Zm9vYmFyYmF6cXV4cXV1eA.1 1795979991245226 order 1", listener, true);

        assertThat(events).containsExactly("released[order 1]");
    }

    @Test
    void aReplyDeliveredToTheSubscriptionIsNoMessage() {
        RedisReleaseWatch subscriber = new RedisReleaseWatch(null, null, List.of("lock:released"), listener,
                false);

        subscriber.onMessage(SimpleStringType.create("PONG"));
        subscriber.onMessage(BulkType.create(Buffer.buffer("pong"), false));

        assertThat(events).isEmpty();
    }

    @Test
    void unknownMessagesAreIgnored() {
        RedisReleaseWatch.dispatch("X something", listener, false);
        RedisReleaseWatch.dispatch("G incomplete", listener, false);

        assertThat(events).isEmpty();
    }
}
