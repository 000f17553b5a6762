package io.quarkiverse.lock.deployment.redis;

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
     * @param port the server's port
     * @param password the password to connect with
     * @return the client URI of the lock user
     */
    static String uri(int port, String password) {
        return "redis://" + NAME + ":" + password + "@127.0.0.1:" + port;
    }
}
