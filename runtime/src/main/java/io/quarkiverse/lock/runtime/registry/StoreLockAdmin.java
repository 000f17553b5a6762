package io.quarkiverse.lock.runtime.registry;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.CRC32;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * The {@link LockAdmin} over the registry's store, each operation bounded in time as every lock operation is; a store
 * failure becomes a {@link LockException} naming the operation and the store.
 * <p>
 * The cursors it hands out wrap the store's: the store's cursor in UTF-8 and its CRC-32, in URL-safe Base64. So a
 * cursor it did not hand out (mistyped, cut short, made up) is refused before anything reaches the store, whatever
 * the store accepts as a cursor (for some, any key is one).
 */
public final class StoreLockAdmin implements LockAdmin {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final int CHECKSUM_BYTES = 4;
    /** How much of a refused cursor its error message shows. */
    private static final int SHOWN_CHARS = 80;

    private final LockStore store;

    /**
     * @param registry the registry whose store is administered
     */
    public StoreLockAdmin(DefaultLockRegistry registry) {
        this(registry.boundedStore());
    }

    StoreLockAdmin(LockStore store) {
        this.store = store;
    }

    @Override
    public Uni<LockPage> held(String cursor, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", but is " + limit);
        }
        String storeCursor = cursor == null ? null : unwrap(cursor);
        return store.listHeld(storeCursor, limit)
                .map(page -> new LockPage(page.locks(), page.next() == null ? null : wrap(page.next())))
                .onFailure(failure -> !(failure instanceof IllegalArgumentException))
                .transform(failure -> new LockException(null, "Could not list the held locks of the " + store.name()
                        + " store: " + failure.getMessage(), failure));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        LockArguments.requireKey(key);
        return store.forceRelease(key).onFailure().transform(failure -> new LockException(key, "Could not force the "
                + "release of lock '" + key + "' in the " + store.name() + " store: " + failure.getMessage(), failure));
    }

    /**
     * @param storeCursor the store's cursor of the next page
     * @return the cursor this admin hands out for it
     */
    static String wrap(String storeCursor) {
        byte[] text = storeCursor.getBytes(StandardCharsets.UTF_8);
        byte[] wrapped = Arrays.copyOf(text, text.length + CHECKSUM_BYTES);
        ByteBuffer.wrap(wrapped, text.length, CHECKSUM_BYTES).putInt(checksum(text));
        return ENCODER.encodeToString(wrapped);
    }

    /**
     * @param cursor a cursor this admin handed out
     * @return the store's cursor it wraps
     * @throws IllegalArgumentException if this admin did not hand it out, naming it
     */
    static String unwrap(String cursor) {
        byte[] wrapped;
        try {
            wrapped = DECODER.decode(cursor);
        } catch (IllegalArgumentException e) {
            throw refused(cursor, "it is not URL-safe Base64");
        }
        if (wrapped.length <= CHECKSUM_BYTES) {
            throw refused(cursor, "it is too short");
        }
        int length = wrapped.length - CHECKSUM_BYTES;
        byte[] text = Arrays.copyOf(wrapped, length);
        if (ByteBuffer.wrap(wrapped, length, CHECKSUM_BYTES).getInt() != checksum(text)) {
            throw refused(cursor, "its checksum does not match");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(text)).toString();
        } catch (CharacterCodingException e) {
            throw refused(cursor, "it is not UTF-8");
        }
    }

    private static int checksum(byte[] text) {
        CRC32 crc = new CRC32();
        crc.update(text);
        return (int) crc.getValue();
    }

    private static IllegalArgumentException refused(String cursor, String why) {
        String shown = cursor.length() > SHOWN_CHARS ? cursor.substring(0, SHOWN_CHARS) + "..." : cursor;
        return new IllegalArgumentException("cursor '" + shown + "' is not the next cursor of a page of held locks "
                + "(LockPage.next()): " + why + "; pass null for the first page");
    }
}
