package io.quarkiverse.lock.runtime.store.redis;

import java.util.List;

import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.AsyncResult;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A caller's commands in a {@link RedisCommandPipeline}, waiting for their turn or in flight, and the caller who waits
 * for their replies.
 */
final class QueuedCommands {

    private final List<Request> requests;
    private final UniEmitter<? super List<Response>> emitter;
    /** Set when the caller went away (or the reply came): queued commands that ended are never sent. */
    private volatile boolean ended;

    QueuedCommands(List<Request> requests, UniEmitter<? super List<Response>> emitter) {
        this.requests = requests;
        this.emitter = emitter;
    }

    List<Request> requests() {
        return requests;
    }

    /** The caller went away, or the reply came. */
    void end() {
        ended = true;
    }

    boolean ended() {
        return ended;
    }

    /** Hands the caller the replies, or the failure. */
    void complete(AsyncResult<List<Response>> reply) {
        if (reply.succeeded()) {
            emitter.complete(reply.result());
        } else {
            emitter.fail(reply.cause());
        }
    }

    /** Fails the caller: the commands were never sent. */
    void fail(Throwable cause) {
        emitter.fail(cause);
    }
}
