package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One RESP2 or RESP3 frame read from a connection: its type byte, its readable text and, for arrays, sets and pushes,
 * the readable text of each element. RESP3 attributes are read with the reply they precede. Streamed strings and
 * aggregates ({@code $?}, {@code *?}), which Redis never sends, are refused as framing errors.
 *
 * @param type the frame's first byte, such as {@code '+'} or {@code '>'}
 * @param text the readable text (see {@link Exchange#reply()})
 * @param elements the texts of the elements of an array, set or push; empty otherwise
 */
record RespFrame(char type, String text, List<String> elements) {

    private static final int MAX_DEPTH = 64;

    /**
     * @param in the connection
     * @return the next frame, whose bytes stay in {@code in}
     * @throws IOException if the connection failed or the bytes are not RESP
     */
    static RespFrame read(FrameInput in) throws IOException {
        return read(in, 0);
    }

    /**
     * Reads a request: an array of bulk strings, or an inline command (a line of words).
     *
     * @param in the client side of a connection
     * @return the request's words
     * @throws IOException if the connection failed or the bytes are not RESP
     */
    static List<String> readRequest(FrameInput in) throws IOException {
        int first = in.read();
        if (first == '*') {
            int count = length(in.readLine());
            List<String> words = new ArrayList<>(Math.max(0, count));
            for (int i = 0; i < count; i++) {
                words.add(read(in, 1).text());
            }
            return words;
        }
        String line = (char) first + in.readLine();
        List<String> words = new ArrayList<>();
        for (String word : line.trim().split("\\s+")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }

    private static RespFrame read(FrameInput in, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("RESP aggregates nested deeper than " + MAX_DEPTH);
        }
        int type = in.read();
        switch (type) {
            case '+', ':', ',', '(':
                return scalar(type, in.readLine());
            case '-':
                return scalar(type, "(error) " + in.readLine());
            case '#':
                return scalar(type, "t".equals(in.readLine()) ? "true" : "false");
            case '_':
                in.readLine();
                return scalar(type, "(nil)");
            case '$', '!', '=':
                return blob(in, type);
            case '*', '~', '>':
                return aggregate(in, type, depth);
            case '%':
                return map(in, depth);
            case '|':
                map(in, depth);
                return read(in, depth);
            default:
                throw new IOException("Not a RESP frame: it starts with byte " + type);
        }
    }

    private static RespFrame scalar(int type, String text) {
        return new RespFrame((char) type, text, List.of());
    }

    private static RespFrame blob(FrameInput in, int type) throws IOException {
        int length = length(in.readLine());
        if (length < 0) {
            return scalar(type, "(nil)");
        }
        String text = new String(in.readBytes(length), StandardCharsets.UTF_8);
        if (in.read() != '\r' || in.read() != '\n') {
            throw new IOException("A RESP string does not end with CRLF");
        }
        if (type == '!') {
            text = "(error) " + text;
        } else if (type == '=' && text.length() >= 4) {
            text = text.substring(4);
        }
        return scalar(type, text);
    }

    private static RespFrame aggregate(FrameInput in, int type, int depth) throws IOException {
        int count = length(in.readLine());
        if (count < 0) {
            return scalar(type, "(nil)");
        }
        List<String> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            elements.add(read(in, depth + 1).text());
        }
        return new RespFrame((char) type, elements.toString(), elements);
    }

    private static RespFrame map(FrameInput in, int depth) throws IOException {
        int count = length(in.readLine());
        StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                text.append(", ");
            }
            text.append(read(in, depth + 1).text()).append('=').append(read(in, depth + 1).text());
        }
        return scalar('%', text.append('}').toString());
    }

    private static int length(String line) throws IOException {
        try {
            int length = Integer.parseInt(line);
            if (length > FrameInput.MAX_FRAME) {
                throw new IOException("A RESP length of " + length);
            }
            return length;
        } catch (NumberFormatException e) {
            throw new IOException("Not a RESP length (streamed RESP3 frames are not supported): " + line, e);
        }
    }

    /**
     * @return the first element's text in lower case, or an empty string if this is no aggregate or it is empty
     */
    String kind() {
        return elements.isEmpty() ? "" : elements.get(0).toLowerCase(Locale.ROOT);
    }
}
