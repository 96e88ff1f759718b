#include "cantonlite/http/java_json.hpp"

#include "cantonlite/http/jawn.hpp"
#include "cantonlite/http/json_nesting.hpp"

#include <cmath>
#include <optional>

#include <simdjson.h>

namespace cantonlite::http {
namespace {

// Bodies up to this size are read by the thread's own simdjson parser, which keeps its buffers
// between requests; a larger one by a parser of its own, freed with it.
constexpr std::size_t reused_parser_limit = 1 << 20;

// simdjson's element as nlohmann's parse holds it, or nullopt where the two could differ: -0.0,
// which nlohmann reads as the integer 0 when written "-0" and simdjson as a double.
std::optional<nlohmann::json> nlohmann_of(simdjson::dom::element element) {
    switch (element.type()) {
        case simdjson::dom::element_type::OBJECT: {
            const simdjson::dom::object fields = element.get_object().value_unsafe();
            nlohmann::json object = nlohmann::json::object();
            for (const simdjson::dom::key_value_pair field : fields) {
                auto value = nlohmann_of(field.value);
                if (!value) return std::nullopt;
                object[std::string(field.key)] = std::move(*value);  // the last of equal keys
            }
            return object;
        }
        case simdjson::dom::element_type::ARRAY: {
            const simdjson::dom::array items = element.get_array().value_unsafe();
            nlohmann::json array = nlohmann::json::array();
            array.get_ref<nlohmann::json::array_t&>().reserve(items.size());
            for (const simdjson::dom::element item : items) {
                auto value = nlohmann_of(item);
                if (!value) return std::nullopt;
                array.push_back(std::move(*value));
            }
            return array;
        }
        case simdjson::dom::element_type::STRING:
            return nlohmann::json(std::string(element.get_string().value_unsafe()));
        case simdjson::dom::element_type::INT64: {
            const std::int64_t n = element.get_int64().value_unsafe();
            // nlohmann holds a number without a sign as unsigned
            if (n >= 0) return nlohmann::json(static_cast<std::uint64_t>(n));
            return nlohmann::json(n);
        }
        case simdjson::dom::element_type::UINT64:
            return nlohmann::json(element.get_uint64().value_unsafe());
        case simdjson::dom::element_type::DOUBLE: {
            const double d = element.get_double().value_unsafe();
            if (d == 0 && std::signbit(d)) return std::nullopt;
            return nlohmann::json(d);
        }
        case simdjson::dom::element_type::BOOL:
            return nlohmann::json(element.get_bool().value_unsafe());
        case simdjson::dom::element_type::NULL_VALUE:
            return nlohmann::json(nullptr);
    }
    return std::nullopt;
}

// A simdjson parser that refuses nesting deeper than max_json_nesting, so that what it reads needs
// no separate depth check; sized for `capacity` bytes at first.
simdjson::dom::parser depth_limited_parser(std::size_t capacity) {
    simdjson::dom::parser parser;
    if (parser.allocate(capacity, max_json_nesting) != simdjson::SUCCESS) {
        // Its depth is not the limit then: simdjson_read leaves every text to the other readers.
    }
    return parser;
}

// `text` read by simdjson, several times faster than nlohmann's own parse on the large bodies of
// commands (their disclosed contracts' blobs): nullopt when simdjson refuses it (nesting deeper
// than max_json_nesting included) or cannot say what nlohmann would hold, for nlohmann and jawn to
// judge as before.
std::optional<nlohmann::json> simdjson_read(std::string_view text) {
    const auto read = [&](simdjson::dom::parser& parser) -> std::optional<nlohmann::json> {
        simdjson::dom::element root;
        if (parser.max_depth() != max_json_nesting ||
            parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS)
            return std::nullopt;
        return nlohmann_of(root);
    };
    if (text.size() > reused_parser_limit) {
        simdjson::dom::parser own = depth_limited_parser(text.size());
        return read(own);
    }
    thread_local simdjson::dom::parser parser = depth_limited_parser(64 * 1024);
    return read(parser);
}

JsonRefusal out_of_range(const nlohmann::json::exception& error) {
    const std::string_view what = error.what();
    const std::size_t text = what.find("number overflow");
    return {JsonRefusal::Reason::number_out_of_range,
            std::string(text == std::string_view::npos ? what : what.substr(text))};
}

}  // namespace

std::variant<nlohmann::json, JsonRefusal> read_java_json(std::string_view text,
                                                         std::size_t jawn_context) {
    // What simdjson reads nests no deeper than the limit: the scan for depth is for the rest.
    const bool plain =
        text.find('\0') == std::string_view::npos && !starts_with_byte_order_mark(text);
    if (plain) {
        if (auto read = simdjson_read(text)) return std::move(*read);
    }
    if (nests_deeper_than(text)) {
        return JsonRefusal{JsonRefusal::Reason::too_deep,
                           "nesting deeper than " + std::to_string(max_json_nesting) + " levels"};
    }
    if (plain) {
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
