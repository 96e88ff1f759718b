#pragma once
// The network page: GET / in a browser. One HTML document with its style and script inline, no
// external assets; its script reads the admin API (/_cantonlite/v1/network, /overview, /time).

#include <string_view>

namespace cantonlite::app {

[[nodiscard]] std::string_view network_page_html();

}  // namespace cantonlite::app
