#pragma once
// Daml-LF types, as far as cantonlite needs them to read the arguments of the commands it runs:
// the JSON Ledger API's schema-driven decoding of Daml-LF JSON into values (Canton's transcode
// JsonCodec), with its error texts.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/model/value.hpp"

namespace cantonlite::model {

// A type. Records and variants keep their fields and constructors in declaration order. Types
// are built once and never freed (LfType::* return pointers that live for the program), so a type
// may name itself (AnyValue's AV_List [AnyValue]).
struct LfType {
    using Kind = Value::Kind;
    Kind kind = Kind::unit;
    std::string name;                                           // record, variant, enum: for errors
    std::vector<const LfType*> args;                            // optional, list, text_map, gen_map
    std::vector<std::pair<std::string, const LfType*>> fields;  // record fields, variant ctors
    std::vector<std::string> constructors;                      // enum

    [[nodiscard]] static const LfType* unit();
    [[nodiscard]] static const LfType* boolean();
    [[nodiscard]] static const LfType* int64();
    [[nodiscard]] static const LfType* numeric();
    [[nodiscard]] static const LfType* text();
    [[nodiscard]] static const LfType* party();
    [[nodiscard]] static const LfType* contract_id();
    [[nodiscard]] static const LfType* timestamp();
    [[nodiscard]] static const LfType* date();
    [[nodiscard]] static const LfType* optional(const LfType* of);
    [[nodiscard]] static const LfType* list(const LfType* of);
    [[nodiscard]] static const LfType* text_map(const LfType* of);
    [[nodiscard]] static const LfType* gen_map(const LfType* key, const LfType* value);
    [[nodiscard]] static const LfType* record(
        std::string name, std::initializer_list<std::pair<std::string, const LfType*>> fields);
    [[nodiscard]] static const LfType* variant(
        std::string name, std::initializer_list<std::pair<std::string, const LfType*>> ctors);
    // A variant declared before its constructors are known (a recursive type): add them with
    // define().
    [[nodiscard]] static LfType* declare_variant(std::string name);
    [[nodiscard]] static const LfType* enumeration(std::string name,
                                                   std::initializer_list<std::string> ctors);
};

// Why a Daml-LF JSON value does not fit its type, as the JSON API reports it.
class LfDecodeError : public std::runtime_error {
  public:
    enum class Kind {
        missing_fields,  // COMMAND_PREPROCESSING_FAILED "Missing non-optional fields: Set(a, b)"
        invalid,         // INVALID_ARGUMENT "The submitted request has invalid arguments: …"
    };
    LfDecodeError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
    [[nodiscard]] Kind kind() const { return kind_; }

  private:
    Kind kind_;
};

// Decodes `json` as a value of `type` (transcode JsonCodec, allowMissingFields = false): records
// as objects in any key order, every field not Optional present, unknown keys only with null;
// variants {"tag","value"}; enums as their constructor; Int64 as a string; Numeric as a number
// or a string; Time as ISO-8601; Date "yyyy-mm-dd"; Optional as null or the value (a nested
// Optional as an array of at most one); GenMap as an array of [key, value]; Unit any value.
// Throws LfDecodeError.
[[nodiscard]] Value decode_lf_json(const nlohmann::json& json, const LfType& type);

// Why `p` is no Daml-LF Party (IdString.scala: non-empty, at most 255 of [A-Za-z0-9:-_ ]), in
// Daml-LF's words; nullopt when it is one.
[[nodiscard]] std::optional<std::string> lf_party_error(std::string_view p);

}  // namespace cantonlite::model
