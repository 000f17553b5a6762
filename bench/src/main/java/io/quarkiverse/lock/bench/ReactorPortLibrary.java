package io.quarkiverse.lock.bench;

import java.util.UUID;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The design this project replaces, re-created as its write-up describes it: EVAL of SETNX then PEXPIRE (the script
 * sent in full each time), a release that GETs the owner and then UNLINKs (two round trips, not atomic), and waiting
 * by polling every 100 ms.
 */
final class ReactorPortLibrary implements LockLibrary {

    private static final String OBTAIN = "local lockSet = redis.call('SETNX', KEYS[1], ARGV[1])\n"
            + "if lockSet == 1 then\n"
            + "  redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
            + "  return true\n"
            + "else\n"
            + "  return false\n"
            + "end";
    private static final long POLL_MILLIS = 100;

    private final Redis redis;

    ReactorPortLibrary(Redis redis) {
        this.redis = redis;
    }

    @Override
    public String name() {
        return "Reactor-port design (baseline)";
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        String id = UUID.randomUUID().toString();
        return obtain(key, id).flatMap(acquired -> release(key, id)).replaceWithVoid();
    }

    private Uni<Boolean> obtain(String key, String id) {
        return send(Request.cmd(Command.EVAL).arg(OBTAIN).arg(1).arg(key).arg(id).arg(LEASE_MILLIS))
                .map(reply -> reply != null && reply.toInteger() == 1);
    }

    private Uni<Void> release(String key, String id) {
        return send(Request.cmd(Command.GET).arg(key))
                .flatMap(owner -> owner != null && id.equals(owner.toString())
                        ? send(Request.cmd(Command.UNLINK).arg(key)).replaceWithVoid()
                        : Uni.createFrom().voidItem());
    }

    private Uni<Response> send(Request request) {
        return UniHelper.toUni(redis.send(request));
    }

    @Override
    public Contender contender(String key, int index) {
        String id = UUID.randomUUID().toString();
        return new Contender() {
            @Override
            public void acquire() throws InterruptedException {
                long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
                while (!obtain(key, id).await().indefinitely()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("gave up after " + WAIT_MILLIS + " ms");
                    }
                    Thread.sleep(POLL_MILLIS);
                }
            }

            @Override
            public void release() {
                ReactorPortLibrary.this.release(key, id).await().indefinitely();
            }
        };
    }
}
