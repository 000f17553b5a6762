package io.quarkiverse.lock.runtime.registry;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Owner ids: 128 bits from a {@link SecureRandom}, as 22 URL-safe characters. Unguessable, so a party that does not
 * hold a lock cannot forge its owner to release or renew it.
 */
final class OwnerIds {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private OwnerIds() {
    }

    static String next() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return ENCODER.encodeToString(bits);
    }
}
