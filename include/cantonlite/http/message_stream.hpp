#pragma once
// MessageStream: what a WebSocket endpoint does once its connection is upgraded, apart from the
// transport. The session feeds it the client's text messages and polls it while it is open; it
// answers with text messages to send and says when the stream is over (the session then closes
// the socket with 1000, normal closure).

#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::http {

class MessageStream {
  public:
    struct Output {
        std::vector<std::string> messages;  // to send, in order
        bool done = false;                  // nothing more will come: close after sending
    };

    virtual ~MessageStream() = default;

    // A text message from the client.
    [[nodiscard]] virtual Output on_message(std::string_view text) = 0;
    // What there is to send now that was not sent yet (the ledger may have moved).
    [[nodiscard]] virtual Output poll() = 0;
};

}  // namespace cantonlite::http
