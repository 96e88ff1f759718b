#include "cantonlite/model/party_id.hpp"

namespace cantonlite::model {
namespace {

constexpr std::size_t max_identifier_length = 185;  // String185
constexpr std::size_t max_fingerprint_length = 68;

// Canton's unique-identifier strings: ASCII letters, digits, '-', '_' and ' '... conservatively
// the characters Canton's LengthLimitedString allows in ids and that parties use in practice.
bool valid_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == ' ';
}

std::optional<std::string> part_error(std::string_view what, std::string_view party,
                                      std::string_view part, std::size_t max_length) {
    if (part.size() > max_length) {
        return std::string(what) + " decoding of `" + std::string(party) +
               "` failed with: string is too long (" + std::to_string(part.size()) + " > " +
               std::to_string(max_length) + ")";
    }
    for (const char c : part) {
        if (!valid_char(c)) {
            return std::string(what) + " decoding of `" + std::string(party) +
                   "` failed with: contains an invalid character '" + std::string(1, c) + "'";
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> party_id_error(std::string_view party) {
    if (party.empty()) return "Empty string is not a valid unique identifier.";
    const std::size_t sep = party.find("::");
    if (sep == std::string_view::npos) {
        return "Invalid unique identifier `" + std::string(party) + "` with missing namespace.";
    }
    if (sep == 0)
        return "Invalid unique identifier `" + std::string(party) + "` with empty identifier.";
    const std::string_view fingerprint = party.substr(sep + 2);
    if (fingerprint.empty()) {
        return "Fingerprint decoding of `" + std::string(party) + "` failed with: empty string";
    }
    if (auto e = part_error("Identifier", party, party.substr(0, sep), max_identifier_length))
        return e;
    return part_error("Fingerprint", party, fingerprint, max_fingerprint_length);
}

}  // namespace cantonlite::model
