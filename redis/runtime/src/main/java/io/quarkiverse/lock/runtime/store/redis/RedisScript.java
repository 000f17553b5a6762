package io.quarkiverse.lock.runtime.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A Lua script shipped with the extension, called by its SHA-1 so only the digest travels on each call.
 * <p>
 * When the server answers {@code NOSCRIPT} (it restarted, failed over, or its script cache was flushed) the call is
 * repeated once with {@code EVAL} and the full source, which also puts the script back in the server's cache.
 */
final class RedisScript {

    private final String source;
    private final String sha1;

    private RedisScript(String source) {
        this.source = source;
        this.sha1 = sha1(source);
    }

    /**
     * @param name the script's file name in {@link RedisLockStore#SCRIPT_FOLDER}
     * @return the loaded script
     */
    static RedisScript load(String name) {
        return new RedisScript(read(name));
    }

    /**
     * @param name the script's file name in {@link RedisLockStore#SCRIPT_FOLDER}
     * @return the loaded script, after the shared functions of {@code lock.lua}
     */
    static RedisScript loadWithFunctions(String name) {
        return new RedisScript(read("lock.lua") + "\n" + read(name));
    }

    private static String read(String name) {
        String path = RedisLockStore.SCRIPT_FOLDER + "/" + name;
        try (InputStream in = RedisScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + path + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read Lua script " + path, e);
        }
    }

    /**
     * Runs the script.
     *
     * @param pipeline the store's commands
     * @param keys the number of leading {@code keysAndArgs} that are keys
     * @param keysAndArgs the keys, then the arguments
     * @return the script's reply
     */
    Uni<Response> run(RedisCommandPipeline pipeline, int keys, String... keysAndArgs) {
        return send(pipeline, Command.EVALSHA, sha1, keys, keysAndArgs)
                .onFailure(RedisScript::isNoScript)
                .recoverWithUni(() -> send(pipeline, Command.EVAL, source, keys, keysAndArgs));
    }

    /**
     * Runs the script and, on the same connection right after it, another command (such as {@code WAIT}, which
     * concerns the writes of the connection it runs on).
     *
     * @param pipeline the store's commands
     * @param next makes the command that follows the script
     * @param keys the number of leading {@code keysAndArgs} that are keys
     * @param keysAndArgs the keys, then the arguments
     * @return the script's reply and the next command's
     */
    Uni<List<Response>> runFollowedBy(RedisCommandPipeline pipeline, Supplier<Request> next, int keys,
            String... keysAndArgs) {
        return pipeline.sendTogether(List.of(request(Command.EVALSHA, sha1, keys, keysAndArgs), next.get()))
                .onFailure(RedisScript::isNoScript)
                .recoverWithUni(() -> pipeline.sendTogether(
                        List.of(request(Command.EVAL, source, keys, keysAndArgs), next.get())));
    }

    String source() {
        return source;
    }

    /**
     * {@code SCRIPT LOAD} of this script, which a new connection sends before any lock command, so calls by SHA-1 find
     * the script on the server they reach.
     */
    Request loadRequest() {
        return Request.cmd(Command.SCRIPT).arg("LOAD").arg(source);
    }

    private static Uni<Response> send(RedisCommandPipeline pipeline, Command command, String script, int keys,
            String[] keysAndArgs) {
        return pipeline.send(request(command, script, keys, keysAndArgs));
    }

    private static Request request(Command command, String script, int keys, String[] keysAndArgs) {
        Request request = Request.cmd(command).arg(script).arg(keys);
        for (String arg : keysAndArgs) {
            request.arg(arg);
        }
        return request;
    }

    private static boolean isNoScript(Throwable failure) {
        return RedisErrors.is(failure, "NOSCRIPT");
    }

    private static String sha1(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available", e);
        }
    }
}
