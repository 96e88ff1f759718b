#pragma once
// Value: a Daml-LF value (the argument of a contract or choice), typed enough to be written in
// every JSON encoding the real services use (see value_json.hpp).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::model {

// One Daml value. A plain tree; `kind` says which members are meaningful:
//   unit                         -
//   boolean, int64               number (0/1 for boolean)
//   numeric                      decimal
//   text, party, contract_id     text
//   timestamp                    number (micros since epoch)
//   date                         number (days since epoch)
//   optional                     items: empty (None) or one (Some)
//   list                         items
//   text_map                     labels (keys) and items (values), same length
//   gen_map                      items: key, value, key, value, ...
//   record                       labels (field names, declaration order) and items (field values)
//   variant                      text (constructor) and items: one value
//   enumeration                  text (constructor)
struct Value {
    struct Field;

    enum class Kind {
        unit,
        boolean,
        int64,
        numeric,
        text,
        party,
        contract_id,
        timestamp,
        date,
        optional,
        list,
        text_map,
        gen_map,
        record,
        variant,
        enumeration,
    };

    Kind kind = Kind::unit;
    std::int64_t number = 0;
    Decimal decimal;
    std::string text;
    std::vector<std::string> labels;
    std::vector<Value> items;

    [[nodiscard]] static Value unit();
    [[nodiscard]] static Value boolean(bool b);
    [[nodiscard]] static Value int64(std::int64_t n);
    [[nodiscard]] static Value numeric(Decimal d);
    [[nodiscard]] static Value text_value(std::string s);
    [[nodiscard]] static Value party(std::string p);
    [[nodiscard]] static Value contract_id(std::string cid);
    [[nodiscard]] static Value timestamp(Timestamp t);
    [[nodiscard]] static Value date(std::int64_t days_since_epoch);
    [[nodiscard]] static Value none();
    [[nodiscard]] static Value some(Value v);
    [[nodiscard]] static Value optional(std::optional<Value> v);
    [[nodiscard]] static Value list(std::vector<Value> elements);
    [[nodiscard]] static Value text_map(std::vector<std::pair<std::string, Value>> entries);
    [[nodiscard]] static Value text_map(std::initializer_list<Field> entries);
    [[nodiscard]] static Value gen_map(std::vector<std::pair<Value, Value>> entries);
    [[nodiscard]] static Value record(std::vector<std::pair<std::string, Value>> fields);
    // Value::record({{"owner", Value::party(p)}, ...}): the field values are moved in, not copied
    // as a braced list of pairs would be.
    [[nodiscard]] static Value record(std::initializer_list<Field> fields);
    [[nodiscard]] static Value variant(std::string constructor, Value v);
    [[nodiscard]] static Value enumeration(std::string constructor);

    // The record field named `label`. REQUIRES: kind == record. nullptr when there is none.
    [[nodiscard]] const Value* field(std::string_view label) const;

    bool operator==(const Value&) const = default;
};

// One entry of a braced record or text map. A temporary value lives until the end of the full
// expression that builds the record, so record() may move it out; the member is mutable because
// an initializer list's elements are const.
struct Value::Field {
    Field(std::string_view label, Value&& value) : label(label), value(std::move(value)) {}
    Field(std::string_view label, const Value& value) : label(label), value(value) {}
    std::string_view label;
    mutable Value value;
};

}  // namespace cantonlite::model
