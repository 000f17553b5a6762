package io.quarkiverse.lock.runtime.store.redis;

/**
 * Reads the error code of a failed Redis reply, alone or within a batch, whose failure the client reports with the
 * failing command's index before its error ({@code "ERR [0] NOSCRIPT ..."}).
 */
final class RedisErrors {

    private RedisErrors() {
    }

    /**
     * @param failure the failure of a reply
     * @param code an error code, such as {@code NOSCRIPT}
     * @return {@code true} if the reply, or the failing command of its batch, answered that error
     */
    static boolean is(Throwable failure, String code) {
        String message = failure.getMessage();
        return message != null && (message.startsWith(code) || message.contains("] " + code + " "));
    }
}
