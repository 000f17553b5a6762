package io.quarkiverse.lock.testsupport.proxy;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare RESP client for the proxy's tests, written apart from the proxy's own framing so it checks it: sends
 * commands as arrays of bulk strings and reads one reply at a time, rendered with its type byte ({@code +OK},
 * {@code :1}, {@code $value}, {@code $nil}, {@code *[a, b]}, {@code >[message, ch, hi]}, {@code %{k=v}}).
 */
final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespConnection(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(5_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /**
     * Sends one command without reading its reply.
     */
    RespConnection send(String... words) throws IOException {
        StringBuilder command = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            command.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word)
                    .append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return this;
    }

    /**
     * Sends one command and reads its reply.
     */
    String call(String... words) throws IOException {
        return send(words).read();
    }

    /**
     * @return the next reply, rendered
     * @throws SocketTimeoutException if none arrives within the read timeout
     * @throws EOFException if the connection was closed
     */
    String read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("closed");
        }
        String line = line();
        switch (type) {
            case '$':
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return "$nil";
                }
                byte[] bytes = in.readNBytes(length + 2);
                return "$" + new String(bytes, 0, length, StandardCharsets.UTF_8);
            case '*', '>', '~':
                int count = Integer.parseInt(line);
                List<String> elements = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    elements.add(read().substring(1));
                }
                return (char) type + elements.toString();
            case '%':
                int pairs = Integer.parseInt(line);
                StringBuilder map = new StringBuilder("%{");
                for (int i = 0; i < pairs; i++) {
                    map.append(i == 0 ? "" : ", ").append(read().substring(1)).append('=').append(read().substring(1));
                }
                return map.append('}').toString();
            default:
                return (char) type + line;
        }
    }

    /**
     * Waits for the read timeout, expecting nothing.
     *
     * @param millis how long
     * @return {@code true} if nothing arrived and the connection stayed open
     */
    boolean staysSilentFor(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            in.read();
            return false;
        } catch (SocketTimeoutException expected) {
            return true;
        } finally {
            socket.setSoTimeout(5_000);
        }
    }

    /**
     * @return {@code true} if the peer closed the connection (end of stream or reset) within 5 s, {@code false} if
     *         bytes arrived instead
     */
    boolean isClosedByPeer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketException reset) {
            return true;
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("closed inside a line");
            }
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
