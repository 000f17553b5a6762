package io.quarkiverse.lock.testsupport.browser;

import java.net.http.WebSocket;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The {@link HeadlessChromium}'s side of its DevTools connection: puts the text frames of a message back together,
 * and tells when the connection ends.
 */
final class DevToolsListener implements WebSocket.Listener {

    private final Consumer<String> messages;
    private final Consumer<String> end;
    private final StringBuilder partial = new StringBuilder();

    DevToolsListener(Consumer<String> messages, Consumer<String> end) {
        this.messages = messages;
        this.end = end;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String message = partial.toString();
            partial.setLength(0);
            try {
                messages.accept(message);
            } catch (RuntimeException e) {
                end.accept("unreadable message " + e);
            }
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        end.accept("closed (" + statusCode + " " + reason + ")");
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        end.accept(error.toString());
    }
}
