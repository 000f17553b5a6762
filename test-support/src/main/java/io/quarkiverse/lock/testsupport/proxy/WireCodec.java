package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;

/**
 * Frames one connection's traffic in one wire protocol, and pairs each reply with the request it answers. One codec
 * per connection: {@link #readRequest(FrameInput)} is called by the thread that reads the client, and
 * {@link #readReply(FrameInput)} by the thread that reads the server, so what they share is thread-safe.
 */
interface WireCodec {

    /**
     * Reads the next request and remembers it, before it is forwarded, as waiting for its reply.
     *
     * @param in the client side of the connection
     * @return the request's frame, or {@code null} if the client closed the connection between two frames
     * @throws IOException if the connection failed or the bytes are not a frame of this protocol
     */
    byte[] readRequest(FrameInput in) throws IOException;

    /**
     * Reads the next reply or push, with the request it answers.
     *
     * @param in the server side of the connection
     * @return the reply, or {@code null} if the server closed the connection between two frames
     * @throws IOException if the connection failed or the bytes are not a frame of this protocol
     */
    Reply readReply(FrameInput in) throws IOException;

    /**
     * @param request a request's frame, as {@link #readRequest(FrameInput)} returned it
     * @return its readable text, as {@link Exchange#request()} shows it; {@code ?} where this protocol does not tell
     *         (a request's text may be known only with the messages after it)
     */
    default String requestText(byte[] request) {
        return "?";
    }

    /**
     * Fits a replacement frame to the reply it replaces, where the protocol names the request in the reply.
     *
     * @param replacement the frame a rule chose
     * @param replaced the reply it replaces
     * @return the frame to deliver
     */
    default byte[] fit(byte[] replacement, Reply replaced) {
        return replacement;
    }

    /**
     * A reply read from the server.
     *
     * @param frame its bytes, as the server sent them
     * @param request readable text of the request it answers, {@code ?} if unknown, {@code null} for a push
     * @param text its readable text
     * @param push whether the server sent it on its own
     * @param endsAnswer whether it is the last message of its answer (see {@link Exchange#endsAnswer()})
     */
    record Reply(byte[] frame, String request, String text, boolean push, boolean endsAnswer) {

        /**
         * A reply that is the whole of its answer, or a push.
         *
         * @param frame its bytes
         * @param request readable text of the request it answers
         * @param text its readable text
         * @param push whether the server sent it on its own
         */
        Reply(byte[] frame, String request, String text, boolean push) {
            this(frame, request, text, push, true);
        }
    }
}
