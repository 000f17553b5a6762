package io.quarkiverse.lock.deployment.redis;

import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The ACL of the secured redis-server: the default user may only {@code PING} (so the server's readiness can be
 * checked without credentials), and the lock user has a password and may touch only the keys and channels under the
 * lock prefix.
 */
final class RedisAclUser {

    static final String NAME = "locker";
    static final String PASSWORD = "s3cret-7c41";
    static final String[] SERVER_SETTINGS = {
            "--user", "default", "on", "nopass", "~*", "+ping",
            "--user", NAME, "on", ">" + PASSWORD, "~lock:*", "&lock:*", "+@all" };

    private RedisAclUser() {
    }

    /**
     * @param testClass the test class, which owns a server with these users
     * @param password the password the lock user connects with
     * @return the application, connecting to that server as the lock user
     */
    static QuarkusUnitTest app(Class<?> testClass, String password) {
        int port = RedisServer.ownedBy(testClass, SERVER_SETTINGS).port();
        return RedisTestApp.on("redis://" + NAME + ":" + password + "@127.0.0.1:" + port, RedisAclUser.class);
    }
}
