package io.quarkiverse.lock.runtime.store.redis;

/**
 * Reads the error code of a failed Redis reply, alone or within a batch, whose failure the client reports with the
 * failing command's index before its error ({@code "ERR [0] NOSCRIPT ..."}), or within a script's error, where Redis
 * before 7 relays the error of a command the script called after a dash
 * ({@code "ERR Error running script (call to f_...): @user_script:1: -READONLY You can't write ..."}).
 */
final class RedisErrors {

    private RedisErrors() {
    }

    /**
     * @param failure the failure of a reply
     * @param code an error code, such as {@code NOSCRIPT}
     * @return {@code true} if the reply, the failing command of its batch, or a command its script called, answered
     *         that error
     */
    static boolean is(Throwable failure, String code) {
        String message = failure.getMessage();
        return message != null && (message.startsWith(code) || message.contains("] " + code + " ")
                || message.contains(": -" + code + " "));
    }
}
