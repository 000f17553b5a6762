package io.quarkiverse.lock.testsupport.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The fault proxy between a bare RESP client and a real {@code redis-server}: each fault does what it says, replies
 * are paired with their requests (RESP2 and RESP3, pub/sub included), and the server applied every request whose
 * reply a fault took away.
 */
class RedisFaultProxyTest {

    private static final Duration PUSH_DELAY = Duration.ofMillis(300);

    private static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private static FaultProxy proxy() {
        return FaultProxy.start("127.0.0.1", redis.port(), WireProtocol.REDIS);
    }

    private static String direct(String... command) throws IOException {
        try (RespConnection connection = new RespConnection(redis.port())) {
            return connection.call(command);
        }
    }

    /** Records every exchange in {@code seen}, and lets its reply pass, or with {@code pushFault} for a push. */
    private static FaultRule recording(List<Exchange> seen, Fault pushFault) {
        return exchange -> {
            seen.add(exchange);
            return exchange.push() ? pushFault : Fault.pass();
        };
    }

    private static FaultRule onRequest(String prefix, Fault fault) {
        return exchange -> exchange.request() != null && exchange.request().startsWith(prefix) ? fault : Fault.pass();
    }

    @Test
    void passesRepliesAndPairsEachWithItsRequest() throws IOException {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(recording(seen, Fault.pass()));
            assertThat(client.call("SET", "pass-key", "some value")).isEqualTo("+OK");
            client.send("GET", "pass-key").send("INCR", "pass-counter").send("LRANGE", "pass-missing", "0", "-1");
            assertThat(client.read()).isEqualTo("$some value");
            assertThat(client.read()).isEqualTo(":1");
            assertThat(client.read()).isEqualTo("*[]");
            assertThat(seen).containsExactly(
                    new Exchange(1, "SET pass-key some value", "OK", false),
                    new Exchange(1, "GET pass-key", "some value", false),
                    new Exchange(1, "INCR pass-counter", "1", false),
                    new Exchange(1, "LRANGE pass-missing 0 -1", "[]", false));
            assertThat(proxy.counts()).isEqualTo(new FaultCounts(0, 0, 0, 0, 0));
            assertThat(proxy.redisUri()).isEqualTo("redis://127.0.0.1:" + proxy.port());
        }
    }

    @Test
    void dropLosesTheReplyOfAnAppliedRequestAndKeepsTheConnectionOpen() throws IOException {
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(onRequest("INCR drop-counter", Fault.drop()));
            client.send("INCR", "drop-counter");
            assertThat(client.staysSilentFor(300)).isTrue();
            assertThat(direct("GET", "drop-counter")).isEqualTo("$1");
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(proxy.counts()).isEqualTo(new FaultCounts(1, 0, 0, 0, 0));
        }
    }

    @Test
    void delayHoldsBackTheReplyAndTheRepliesAfterItInOrder() throws IOException {
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(onRequest("GET delay-key", Fault.delay(Duration.ofMillis(400))));
            long start = System.nanoTime();
            client.send("GET", "delay-key").send("ECHO", "after");
            assertThat(client.read()).isEqualTo("$nil");
            assertThat(client.read()).isEqualTo("$after");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
            start = System.nanoTime();
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(300));
            assertThat(proxy.counts().delays()).isEqualTo(1);
        }
    }

    @Test
    void cutClosesTheConnectionInsteadOfTheReplyAfterDeliveringTheRepliesBeforeIt() throws IOException {
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(onRequest("ECHO before", Fault.delay(Duration.ofMillis(200))))
                    .rule(onRequest("INCR cut-counter", Fault.cut()));
            client.send("ECHO", "before").send("INCR", "cut-counter");
            assertThat(client.read()).isEqualTo("$before");
            assertThat(client.isClosedByPeer()).isTrue();
            assertThat(direct("GET", "cut-counter")).isEqualTo("$1");
            assertThat(proxy.counts()).isEqualTo(new FaultCounts(0, 1, 1, 0, 0));
            try (RespConnection again = new RespConnection(proxy.port())) {
                assertThat(again.call("PING")).isEqualTo("+PONG");
            }
        }
    }

    @Test
    void replaceWithDeliversTheGivenFrameInstead() throws IOException {
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(onRequest("SET replaced",
                    Fault.replaceWith("-ERR injected\r\n".getBytes(StandardCharsets.UTF_8))));
            assertThat(client.call("SET", "replaced", "1")).isEqualTo("-ERR injected");
            assertThat(direct("GET", "replaced")).isEqualTo("$1");
            assertThat(client.call("GET", "replaced")).isEqualTo("$1");
            assertThat(proxy.counts()).isEqualTo(new FaultCounts(0, 0, 0, 1, 0));
        }
    }

    @Test
    void rulesAreAskedInOrderAndTheFirstFaultWins() throws IOException {
        List<String> asked = new CopyOnWriteArrayList<>();
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(exchange -> {
                asked.add("first");
                return Fault.pass();
            }).rule(exchange -> {
                asked.add("second");
                return Fault.replaceWith(":42\r\n".getBytes(StandardCharsets.UTF_8));
            }).rule(exchange -> {
                asked.add("third");
                return Fault.cut();
            });
            assertThat(client.call("PING")).isEqualTo(":42");
            assertThat(asked).containsExactly("first", "second");
            proxy.clearRules();
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(proxy.counts()).isEqualTo(new FaultCounts(0, 0, 0, 1, 0));
        }
    }

    @Test
    void swallowMakesTheOpenConnectionsSilentlyDeadAndLetsNewOnesThrough() throws IOException {
        try (FaultProxy proxy = proxy();
                RespConnection dead = new RespConnection(proxy.port());
                RespConnection unaffected = new RespConnection(redis.port())) {
            assertThat(dead.call("PING")).isEqualTo("+PONG");
            proxy.swallow(true);
            dead.send("SET", "swallowed", "1");
            assertThat(dead.staysSilentFor(500)).isTrue();
            assertThat(unaffected.call("GET", "swallowed")).isEqualTo("$nil");
            assertThat(proxy.counts().swallowedBytes()).isPositive();
            try (RespConnection later = new RespConnection(proxy.port())) {
                assertThat(later.call("PING")).isEqualTo("+PONG");
                proxy.swallow(false);
                assertThat(dead.isClosedByPeer()).isTrue();
                assertThat(later.call("PING")).isEqualTo("+PONG");
            }
            assertThat(proxy.counts().faults()).isZero();
        }
    }

    @Test
    void cutAllClosesEveryConnectionAndTheProxyKeepsListening() throws IOException {
        try (FaultProxy proxy = proxy();
                RespConnection first = new RespConnection(proxy.port());
                RespConnection second = new RespConnection(proxy.port())) {
            assertThat(first.call("PING")).isEqualTo("+PONG");
            assertThat(second.call("PING")).isEqualTo("+PONG");
            assertThat(proxy.openConnections()).isEqualTo(2);
            proxy.cutAll();
            assertThat(first.isClosedByPeer()).isTrue();
            assertThat(second.isClosedByPeer()).isTrue();
            assertThat(proxy.counts().cuts()).isEqualTo(2);
            try (RespConnection third = new RespConnection(proxy.port())) {
                assertThat(third.call("PING")).isEqualTo("+PONG");
            }
        }
    }

    @Test
    void resp2PubSubMessagesArePushesAndConfirmationsAnswerTheirSubscribe() throws IOException {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        try (FaultProxy proxy = proxy(); RespConnection subscriber = new RespConnection(proxy.port())) {
            proxy.rule(recording(seen, Fault.delay(PUSH_DELAY)));
            subscriber.send("SUBSCRIBE", "resp2-a", "resp2-b");
            assertThat(subscriber.read()).isEqualTo("*[subscribe, resp2-a, 1]");
            assertThat(subscriber.read()).isEqualTo("*[subscribe, resp2-b, 2]");
            long start = System.nanoTime();
            assertThat(direct("PUBLISH", "resp2-b", "hello")).isEqualTo(":1");
            assertThat(subscriber.read()).isEqualTo("*[message, resp2-b, hello]");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(PUSH_DELAY);
            assertThat(subscriber.call("PING")).isEqualTo("*[pong, ]");
            subscriber.send("UNSUBSCRIBE");
            assertThat(subscriber.read()).startsWith("*[unsubscribe, resp2-").endsWith(", 1]");
            assertThat(subscriber.read()).startsWith("*[unsubscribe, resp2-").endsWith(", 0]");
            assertThat(subscriber.call("ECHO", "done")).isEqualTo("$done");
            assertThat(seen).extracting(Exchange::request, Exchange::push).containsExactly(
                    tuple("SUBSCRIBE resp2-a resp2-b", false),
                    tuple("SUBSCRIBE resp2-a resp2-b", false),
                    tuple(null, true),
                    tuple("PING", false),
                    tuple("UNSUBSCRIBE", false),
                    tuple("UNSUBSCRIBE", false),
                    tuple("ECHO done", false));
            assertThat(seen.get(2).reply()).isEqualTo("[message, resp2-b, hello]");
            assertThat(proxy.counts().delays()).isEqualTo(1);
        }
    }

    @Test
    void resp3PushFramesAreTheirOwnExchangesBetweenReplies() throws IOException {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        try (FaultProxy proxy = proxy(); RespConnection client = new RespConnection(proxy.port())) {
            proxy.rule(recording(seen, Fault.delay(PUSH_DELAY)));
            assertThat(client.call("HELLO", "3")).startsWith("%{server=redis");
            assertThat(client.call("SUBSCRIBE", "resp3-channel")).isEqualTo(">[subscribe, resp3-channel, 1]");
            long start = System.nanoTime();
            assertThat(direct("PUBLISH", "resp3-channel", "hi")).isEqualTo(":1");
            client.send("SET", "resp3-key", "v");
            assertThat(client.read()).isEqualTo(">[message, resp3-channel, hi]");
            assertThat(client.read()).isEqualTo("+OK");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(PUSH_DELAY);
            assertThat(seen).extracting(Exchange::request).containsExactly("HELLO 3", "SUBSCRIBE resp3-channel",
                    null, "SET resp3-key v");
            assertThat(seen).extracting(Exchange::push).containsExactly(false, false, true, false);
            assertThat(seen.get(2).reply()).isEqualTo("[message, resp3-channel, hi]");
        }
    }

    @Test
    void closeStopsListeningAndClosesConnectionsAndMayBeCalledAgain() throws IOException {
        FaultProxy proxy = proxy();
        int port = proxy.port();
        try (RespConnection client = new RespConnection(port)) {
            assertThat(client.call("PING")).isEqualTo("+PONG");
            proxy.close();
            proxy.close();
            assertThat(client.isClosedByPeer()).isTrue();
        } finally {
            proxy.close();
        }
        // The port itself may be taken again at once by another socket of this machine: the proxy's state says it.
        assertThat(proxy.openConnections()).isZero();
    }

    @Test
    void badArgumentsFailFast() {
        assertThatThrownBy(() -> FaultProxy.start(null, 1, WireProtocol.REDIS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FaultProxy.start("127.0.0.1", 0, WireProtocol.REDIS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.delay(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.replaceWith(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        try (FaultProxy proxy = proxy()) {
            assertThatThrownBy(() -> proxy.rule(null)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
