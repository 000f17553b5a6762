package io.quarkiverse.lock.testsupport.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A buffered reader of one side of a connection that keeps every byte of the frame being read, so the frame can be
 * forwarded exactly as it came once it is complete. Used by one thread only.
 */
final class FrameInput {

    /** The longest frame accepted; a longer one is taken for a framing error. */
    static final int MAX_FRAME = 64 * 1024 * 1024;
    private static final int MAX_LINE = 64 * 1024;

    private final InputStream in;
    private final byte[] buffer = new byte[16 * 1024];
    private int position;
    private int limit;
    private byte[] frame = new byte[256];
    private int frameLength;

    FrameInput(InputStream in) {
        this.in = in;
    }

    /**
     * Waits for the first byte of the next frame.
     *
     * @return {@code false} if the stream ended before it
     */
    boolean awaitFrame() throws IOException {
        return position < limit || fill();
    }

    /**
     * @return {@code true} if bytes that arrived are still unread, so more frames may follow at once
     */
    boolean hasBuffered() {
        return position < limit;
    }

    /**
     * @return the next byte, kept in the frame
     * @throws EOFException if the stream ended inside the frame
     */
    int read() throws IOException {
        if (position == limit && !fill()) {
            throw new EOFException("The connection ended inside a frame");
        }
        int b = buffer[position++] & 0xff;
        keep(b);
        return b;
    }

    /**
     * @param length how many bytes
     * @return the next bytes, kept in the frame
     * @throws EOFException if the stream ended inside the frame
     */
    byte[] readBytes(int length) throws IOException {
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("Invalid length " + length);
        }
        byte[] bytes = new byte[length];
        int done = 0;
        while (done < length) {
            if (position == limit && !fill()) {
                throw new EOFException("The connection ended inside a frame");
            }
            int chunk = Math.min(length - done, limit - position);
            System.arraycopy(buffer, position, bytes, done, chunk);
            position += chunk;
            done += chunk;
        }
        keep(bytes, 0, length);
        return bytes;
    }

    /**
     * @return the next line, without its {@code \r\n}, kept in the frame with it
     * @throws IOException if the stream ended inside the line, or the line is too long
     */
    String readLine() throws IOException {
        int start = frameLength;
        int previous = -1;
        while (true) {
            int b = read();
            if (b == '\n' && previous == '\r') {
                return new String(frame, start, frameLength - start - 2, StandardCharsets.UTF_8);
            }
            if (frameLength - start > MAX_LINE) {
                throw new IOException("A line longer than " + MAX_LINE + " bytes");
            }
            previous = b;
        }
    }

    /**
     * @return the bytes of the frame read since the last call, which starts the next frame
     */
    byte[] takeFrame() {
        byte[] taken = Arrays.copyOf(frame, frameLength);
        frameLength = 0;
        return taken;
    }

    /**
     * Reads and discards whatever arrives, without framing, for a connection that is dead.
     *
     * @return how many bytes were discarded (with those of an unfinished frame), or -1 at the end of the stream
     */
    long discard() throws IOException {
        long discarded = frameLength + (long) (limit - position);
        frameLength = 0;
        position = limit;
        if (discarded > 0) {
            return discarded;
        }
        return fill() ? discard() : -1;
    }

    private boolean fill() throws IOException {
        int read = in.read(buffer);
        if (read <= 0) {
            return false;
        }
        position = 0;
        limit = read;
        return true;
    }

    private void keep(int b) throws IOException {
        ensure(1);
        frame[frameLength++] = (byte) b;
    }

    private void keep(byte[] bytes, int offset, int length) throws IOException {
        ensure(length);
        System.arraycopy(bytes, offset, frame, frameLength, length);
        frameLength += length;
    }

    private void ensure(int more) throws IOException {
        int needed = frameLength + more;
        if (needed > MAX_FRAME) {
            throw new IOException("A frame longer than " + MAX_FRAME + " bytes");
        }
        if (needed > frame.length) {
            frame = Arrays.copyOf(frame, Math.max(needed, Math.min(MAX_FRAME, frame.length * 2)));
        }
    }
}
