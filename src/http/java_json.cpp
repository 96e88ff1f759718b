#include "cantonlite/http/java_json.hpp"

#include "cantonlite/http/jawn.hpp"
#include "cantonlite/http/json_nesting.hpp"

namespace cantonlite::http {
namespace {

JsonRefusal out_of_range(const nlohmann::json::exception& error) {
    const std::string_view what = error.what();
    const std::size_t text = what.find("number overflow");
    return {JsonRefusal::Reason::number_out_of_range,
            std::string(text == std::string_view::npos ? what : what.substr(text))};
}

}  // namespace

std::variant<nlohmann::json, JsonRefusal> read_java_json(std::string_view text,
                                                         std::size_t jawn_context) {
    if (nests_deeper_than(text)) {
        return JsonRefusal{JsonRefusal::Reason::too_deep,
                           "nesting deeper than " + std::to_string(max_json_nesting) + " levels"};
    }
    if (text.find('\0') == std::string_view::npos && !starts_with_byte_order_mark(text)) {
        try {
            return nlohmann::json::parse(text);
        } catch (const nlohmann::json::exception&) {
            // jawn reads the whole text first: its verdict comes before any number's range.
        }
    }
    if (auto error = jawn_error(text, jawn_context)) {
        return JsonRefusal{JsonRefusal::Reason::malformed, std::move(*error)};
    }
    // jawn reads what nlohmann refused: bytes that are not UTF-8 (Java decoded them to U+FFFD), a
    // lone surrogate's escape, or a number beyond a double.
    try {
        return nlohmann::json::parse(java_json_text(text));
    } catch (const nlohmann::json::exception& error) {
        return out_of_range(error);
    }
}

}  // namespace cantonlite::http
