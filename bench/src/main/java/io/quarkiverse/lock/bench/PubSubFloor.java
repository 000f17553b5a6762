package io.quarkiverse.lock.bench;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;

/**
 * Not a distributed lock: the least a handoff through Redis costs. The line of waiters is kept in this JVM; a release
 * hands the lock to the next waiter with one {@code PUBLISH} on that waiter's own channel, which it hears on a
 * subscription of its own, as a pub/sub lock's waiter hears a release. No script, no claim: one round trip for the
 * releaser and one message for the waiter, on this machine's Redis, event loops and threads. A lock whose handoff
 * needs a release message cannot be faster than this, so its figures are the floor for every library in the table.
 */
final class PubSubFloor extends HandoffFloor {

    /** Two connections per contender (its subscription, its commands), for up to 64 contenders. */
    private static final int MAX_CONNECTIONS = 128;

    private final Redis redis;
    /** The channels of the waiters, in the order they asked; guarded by this. */
    private final Queue<String> waiting = new ArrayDeque<>();
    /** Guarded by this. */
    private boolean held;

    /**
     * @param vertx the application's Vert.x
     * @param address the Redis server's address
     */
    PubSubFloor(Vertx vertx, String address) {
        super("One PUBLISH per handoff (the Redis floor)");
        this.redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(address)
                .setMaxPoolSize(MAX_CONNECTIONS).setMaxPoolWaiting(MAX_CONNECTIONS));
    }

    @Override
    public Contender contender(String key, int index) {
        String channel = key + ":floor:" + index;
        RedisConnection subscriber = redis.connect().toCompletionStage().toCompletableFuture().join();
        RedisConnection commands = redis.connect().toCompletionStage().toCompletableFuture().join();
        return new Contender() {
            private volatile CompletableFuture<Void> turn;

            {
                subscriber.handler(message -> {
                    if (message.size() >= 3 && "message".equals(message.get(0).toString())) {
                        turn.complete(null);
                    }
                });
                subscriber.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).toCompletionStage().toCompletableFuture()
                        .join();
            }

            @Override
            public void acquire() throws Exception {
                CompletableFuture<Void> mine = new CompletableFuture<>();
                synchronized (PubSubFloor.this) {
                    if (!held) {
                        held = true;
                        return;
                    }
                    turn = mine;
                    waiting.add(channel);
                }
                try {
                    mine.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    synchronized (PubSubFloor.this) {
                        if (waiting.remove(channel)) {
                            throw e;
                        }
                    }
                    // Handed over as the wait ran out: the message is on its way, and the lock is this contender's.
                    mine.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                }
            }

            @Override
            public void release() {
                String next;
                synchronized (PubSubFloor.this) {
                    next = waiting.poll();
                    if (next == null) {
                        held = false;
                        return;
                    }
                }
                commands.send(Request.cmd(Command.PUBLISH).arg(next).arg("yours")).toCompletionStage()
                        .toCompletableFuture().join();
            }

            @Override
            public void close() {
                subscriber.close();
                commands.close();
            }
        };
    }

    @Override
    public void close() {
        redis.close();
    }
}
